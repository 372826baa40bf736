// spmv.cu - sparse matrix-vector product y = A x, A in CSR, scalar kernel:
// one thread per row.  Row lengths vary, so lanes of a warp run different
// trip counts (loop divergence), and the loads of vals/cols are strided by
// the row length (poorly coalesced); x is gathered through the column
// indices.  This is the "CSR scalar" kernel of Bell & Garland (SC 2009).
extern "C" __global__ void spmv_csr(unsigned nrows, const unsigned *__restrict__ row_ptr,
                                    const unsigned *__restrict__ cols, const float *__restrict__ vals,
                                    const float *__restrict__ x, float *__restrict__ y)
{
    unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= nrows)
        return;
    float sum = 0.0f;
    for (unsigned j = row_ptr[row]; j < row_ptr[row + 1]; j++)
        sum += vals[j] * x[cols[j]];
    y[row] = sum;
}
