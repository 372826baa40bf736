MemcpyHtoD,0x00007f2b2d500000,400
MemcpyDtoH,0x10,5
# c
kernel-1.traceg
kernel-2.traceg.xz
