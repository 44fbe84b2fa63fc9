// workloads/prodcons: a producer/consumer pipeline between thread blocks of
// one launch, through a bounded ring of slots in global memory (the
// multi-producer multi-consumer queue of GPU streaming / pipeline-parallel
// runtimes; the classic sequence-numbered ring buffer).
//
// Blocks [0, n_prod) are producers, the rest consumers. Items 0..n_items-1
// are claimed in order with a ticket counter per role (atomicAdd), so any
// producer may make any item and any consumer may take it. Item i lives in
// slot i % n_slots during lap i / n_slots; the slot's sequence number says
// whose turn it is: 2*lap (empty, producer of lap `lap` may fill it) and
// 2*lap + 1 (full, its consumer may read it). The consumer sets 2*lap + 2,
// which hands the slot to the producer of the next lap.
//
// Consuming an item costs more than producing it (prod_rounds <
// cons_rounds), so the ring runs full and producers wait for free slots;
// consumers wait for items at the start.
//
// Producer (one item = ITEM_WORDS words, one per thread): compute the
// payload, thread 0 waits until the slot is empty, all threads store their
// word (volatile), __threadfence, __syncthreads, then thread 0 publishes the
// slot by setting its sequence number.
// Consumer: thread 0 waits until the slot is full and fences, all threads
// read the payload (volatile), thread 0 releases the slot after a fence,
// and the block reduces a checksum of the payload into out[item] and the
// 64-bit grand total.
//
// All blocks must be resident at once (the host sizes the grid); only
// thread 0 of a block spins, the others wait at __syncthreads.

#define ITEM_WORDS 128 // threads per block = words per item

// Payload word k of an item with parameter p: `rounds` rounds of a
// multiply/xorshift integer hash (the "work" of producing an item).
__device__ static unsigned produce_word(unsigned p, unsigned k, int rounds)
{
    unsigned x = p ^ (k * 0x9E3779B9u);
    for (int r = 0; r < rounds; r++) {
        x = x * 1664525u + 1013904223u;
        x ^= x >> 13;
    }
    return x;
}

// A consumer's processing of payload word k: `rounds` rounds of another
// integer mix, weighted into the item checksum.
__device__ static unsigned consume_word(unsigned v, unsigned k, int rounds)
{
    for (int r = 0; r < rounds; r++) {
        v = (v ^ (v >> 7)) * 0x2C1B3C6Du;
        v += 0x297A2D39u;
    }
    return v * (2u * k + 1u);
}

extern "C" __global__ void prodcons(const unsigned *__restrict__ item_param, unsigned *ring, unsigned *seq,
                                    unsigned *tickets, unsigned *out, unsigned long long *total, int n_items,
                                    int n_slots, int n_prod, int prod_rounds, int cons_rounds)
{
    __shared__ int s_item;
    __shared__ unsigned s_part[ITEM_WORDS / 32];
    volatile unsigned *vring = ring;
    volatile unsigned *vseq = seq;
    unsigned tid = threadIdx.x;
    bool producer = (int)blockIdx.x < n_prod;
    for (;;) {
        if (tid == 0)
            s_item = (int)atomicAdd(&tickets[producer ? 0 : 1], 1u);
        __syncthreads();
        int item = s_item;
        if (item >= n_items)
            break; // uniform: every thread read the same ticket
        int slot = item % n_slots;
        unsigned lap = (unsigned)(item / n_slots);
        volatile unsigned *words = vring + (size_t)slot * ITEM_WORDS;
        if (producer) {
            unsigned v = produce_word(item_param[item], tid, prod_rounds);
            if (tid == 0) {
                while (vseq[slot] != 2u * lap) // wait for the slot to be empty
                    ;
                __threadfence();
            }
            __syncthreads();
            words[tid] = v;
            __threadfence(); // payload visible before the flag
            __syncthreads();
            if (tid == 0)
                atomicExch(&seq[slot], 2u * lap + 1u); // publish
        } else {
            if (tid == 0) {
                while (vseq[slot] != 2u * lap + 1u) // wait for the slot to be full
                    ;
                __threadfence(); // flag read before the payload reads
            }
            __syncthreads();
            unsigned v = words[tid];
            __syncthreads(); // every thread has its word
            if (tid == 0) {
                __threadfence();
                atomicExch(&seq[slot], 2u * lap + 2u); // release to the next lap's producer
            }
            unsigned x = consume_word(v, tid, cons_rounds);
            for (int o = 16; o > 0; o >>= 1)
                x += __shfl_down_sync(0xffffffffu, x, o);
            if ((tid & 31) == 0)
                s_part[tid >> 5] = x;
            __syncthreads();
            if (tid == 0) {
                unsigned sum = 0;
                for (int w = 0; w < ITEM_WORDS / 32; w++)
                    sum += s_part[w];
                out[item] = sum;
                atomicAdd(total, (unsigned long long)sum);
            }
        }
    }
}
