// workloads/ii: positional inverted index of a document collection, after
// Mars InvertedIndex (a MapReduce job whose map scans one document and
// emits (term, document) pairs), written for gpusim.
//
// Documents are token arrays (term ids) stored back to back; doc_start[k]
// is the first token of document k, doc_start[n_docs] the total. Terms
// below `stop` are stop words and are not indexed. Every other occurrence
// becomes one posting (document << 32 | position) in the list of its term.
//   ii_count: counts[t] += occurrences of t (global atomics), one thread
//             per document.
//   ii_fill:  the host has turned counts into list offsets (exclusive prefix
//             sum); each occurrence takes the next free slot of its term's
//             list (atomic cursor) and writes its posting there.
// The order of the postings inside one list depends on the order in which
// the atomics are performed, so the driver checks each list as a set.
// Each thread walks its own document: the lanes of a warp read from
// different documents (uncoalesced, a line per lane), and a lane re-reads
// its current line for up to 32 tokens, so the scan depends on the
// lines staying in the L1D between the warp's visits.
// Launch with 1-D blocks over the documents; the last block may be partial.

extern "C" __global__ void ii_count(const unsigned *__restrict__ tokens, const unsigned *__restrict__ doc_start,
                                    int n_docs, unsigned stop, unsigned *counts)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n_docs)
        return;
    for (unsigned p = doc_start[k], e = doc_start[k + 1]; p < e; p++) {
        unsigned t = tokens[p];
        if (t >= stop)
            atomicAdd(&counts[t], 1u);
    }
}

extern "C" __global__ void ii_fill(const unsigned *__restrict__ tokens, const unsigned *__restrict__ doc_start,
                                   int n_docs, unsigned stop, const unsigned *__restrict__ offsets,
                                   unsigned *cursor, unsigned long long *__restrict__ postings)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n_docs)
        return;
    unsigned first = doc_start[k];
    for (unsigned p = first, e = doc_start[k + 1]; p < e; p++) {
        unsigned t = tokens[p];
        if (t >= stop) {
            unsigned slot = offsets[t] + atomicAdd(&cursor[t], 1u);
            postings[slot] = (unsigned long long)k << 32 | (p - first);
        }
    }
}
