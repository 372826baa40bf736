// kmeans.cu - the assignment step of Lloyd's k-means.
//
// Points are stored feature-major (feature f of point i at f*npoints + i) so
// that a warp's loads of one feature are coalesced.  The k centroids live in
// constant memory: every lane reads the same centroid value at the same
// time, which the constant cache broadcasts.  Each thread finds the nearest
// centroid (squared Euclidean distance; ties go to the lower index) and
// writes its index.  The host recomputes the centroids from the assignment
// and iterates, as in Rodinia's kmeans (which we do not copy).
#define KM_MAX_CENTROIDS 16
#define KM_MAX_FEATURES 16

__constant__ float km_centroids[KM_MAX_CENTROIDS * KM_MAX_FEATURES];

extern "C" __global__ void kmeans_assign(unsigned npoints, unsigned nfeatures, unsigned k,
                                         const float *__restrict__ points, int *__restrict__ membership)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= npoints)
        return;
    int best = 0;
    float best_d = 3.0e38f;
    for (unsigned c = 0; c < k; c++) {
        float d = 0.0f;
        for (unsigned f = 0; f < nfeatures; f++) {
            float diff = points[f * npoints + i] - km_centroids[c * nfeatures + f];
            d += diff * diff;
        }
        if (d < best_d) {
            best_d = d;
            best = (int)c;
        }
    }
    membership[i] = best;
}
