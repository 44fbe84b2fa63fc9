// workloads/bfs: level-synchronous breadth-first search over a directed graph
// in CSR form, mirroring Rodinia's BFS (written for gpusim). One thread per
// node, two kernels per level:
//   bfs_expand: every node in the frontier (mask set) leaves the frontier and
//               labels each not-yet-visited neighbour with level + 1, marking
//               it for the next frontier;
//   bfs_update: every marked node joins the frontier and the visited set and
//               raises the "changed" flag so that the host runs another level.
// Several frontier nodes may label the same neighbour in one level; they all
// write the same value (the current level + 1), so the race is benign.
// Irregular, memory-bound gathers with heavy branch divergence (the degree
// loop runs as long as the busiest lane of the warp).

extern "C" __global__ void bfs_expand(const int *__restrict__ row_start, const int *__restrict__ col,
                                      unsigned char *frontier, unsigned char *next, const unsigned char *visited,
                                      int *cost, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !frontier[v])
        return;
    frontier[v] = 0;
    int level = cost[v] + 1;
    for (int e = row_start[v]; e < row_start[v + 1]; e++) {
        int u = col[e];
        if (!visited[u]) {
            cost[u] = level;
            next[u] = 1;
        }
    }
}

extern "C" __global__ void bfs_update(unsigned char *frontier, unsigned char *next, unsigned char *visited,
                                      int *changed, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !next[v])
        return;
    frontier[v] = 1;
    visited[v] = 1;
    next[v] = 0;
    *changed = 1;
}
