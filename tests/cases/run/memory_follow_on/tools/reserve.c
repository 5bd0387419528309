/* A library that reserves more address space than the runner's limit, as torch's CUDA libraries
   do: the test compiles it into tools/reserve.so before the run. */
static char reserve[1536UL * 1024 * 1024];

char *reserved(void) { return reserve; }
