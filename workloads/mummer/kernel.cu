// workloads/mummer: MUMmer-style exact matching of short reads against a
// reference through a suffix structure, after Rodinia's mummergpu (written
// for gpusim; our own, simpler structure). mummergpu walks a suffix tree
// stored in texture memory; we use a suffix array (sa[r] = start of the
// r-th smallest suffix of the reference), which is the flattened form of
// the same lexicographic order:
//   mummer_match: one thread per query (qlen bases, stored row-major,
//       query q at queries[q * qlen], so the threads of a warp read
//       addresses qlen bytes apart: uncoalesced, and every offset re-reads
//       the same query lines). For every off_step-th query offset o in
//       [0, qlen - min_len] the thread finds the longest prefix of the
//       query suffix q[o..qlen) that occurs in the reference by a binary
//       search over the suffix array (Manber-Myers: the comparison at
//       rank mid starts after min(lcp with the lower bound, lcp with the
//       upper bound) bases). Every search starts at the same root
//       (rank n/2), so the first levels of the implicit search tree (their
//       sa[] entries and the reference bases they point to) are shared by
//       all threads, deeper levels are irregular pointer chasing
//       (sa[mid] -> ref[sa[mid] + l]).
//       The longest common prefix with any suffix is reached at one of the
//       two neighbours of the query's insertion rank, so the answer is the
//       larger of the two bound lcps (the upper bound on ties). Per query
//       the thread writes the best length over the searched offsets (first
//       offset on ties), that offset and the reference position of the
//       match.
// Bases are bytes (A, C, G, T as 0..3). All integer: the result is exact.

extern "C" __global__ void mummer_match(const unsigned char *__restrict__ ref, const int *__restrict__ sa,
                                        int n_ref, const unsigned char *__restrict__ queries, int n_query,
                                        int qlen, int min_len, int off_step, int *__restrict__ best_len,
                                        int *__restrict__ best_off, int *__restrict__ best_pos)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= n_query)
        return;
    const unsigned char *qs = queries + (size_t)q * qlen;
    int b_len = 0, b_off = 0, b_pos = 0;
    for (int o = 0; o + min_len <= qlen; o += off_step) {
        const unsigned char *p = qs + o;
        int m = qlen - o;
        // Invariant: suffix(lo) < p <= suffix(hi), ranks -1 and n_ref virtual
        // (lcp 0); l_lo, l_hi the lcps of p with the two bounds.
        int lo = -1, hi = n_ref, l_lo = 0, l_hi = 0;
        while (hi - lo > 1) {
            int mid = (lo + hi) >> 1;
            int s = sa[mid];
            int l = l_lo < l_hi ? l_lo : l_hi;
            int rest = n_ref - s; // bases left in this suffix
            while (l < m && l < rest && p[l] == ref[s + l])
                l++;
            // p <= suffix(mid) when p is a prefix of it or the first
            // differing base of p is smaller.
            bool le = l == m || (l < rest && p[l] < ref[s + l]);
            if (le) {
                hi = mid;
                l_hi = l;
            } else {
                lo = mid;
                l_lo = l;
            }
        }
        int len, pos;
        if (l_hi >= l_lo) {
            len = l_hi;
            pos = hi < n_ref ? sa[hi] : 0;
        } else {
            len = l_lo;
            pos = sa[lo];
        }
        if (len > b_len) {
            b_len = len;
            b_off = o;
            b_pos = pos;
        }
    }
    best_len[q] = b_len;
    best_off[q] = b_off;
    best_pos[q] = b_pos;
}
