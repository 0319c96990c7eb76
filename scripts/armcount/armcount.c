/*
 * armcount.c: a TCG plugin for QEMU 7.x user mode (plugin API version 1)
 * that counts the guest instructions a program executes and, on arm64,
 * among them the multiplies (the data-processing 3-source class: MADD/MUL,
 * MSUB, SMADDL, SMSUBL, SMULH, UMADDL, UMSUBL, UMULH; encoding bits
 * 28..24 = 0b11011).
 *
 * Its output file (argument out=PATH) has one line per write(2) the guest
 * makes to its standard output, with the counts reached when the write was
 * issued, and the totals at exit:
 *
 *     mark LEN INSNS MULS
 *     total INSNS MULS
 *
 * so that a driver can split a Go benchmark run at the lines the testing
 * package prints (internal/cmd/costguard does). With pcs=on it also writes,
 * for every translation block that ran, its start address, size in
 * instructions and multiplies, and how many times it ran:
 *
 *     tb PC N M EXECS
 *
 * which the driver attributes to functions by the binary's symbol table.
 * skip=START-END (hex) names a code range, the Go runtime's sysmon: a guest
 * thread that enters it is not counted from then on, as sysmon's work
 * follows the wall clock, not the program. arch=x86_64 counts an x86-64
 * guest (qemu-x86_64): instructions only.
 *
 * Debian has no header package for the plugin API, so the few symbols this
 * file uses are declared here, as QEMU 7.2's qemu-plugin.h defines them.
 * Build: gcc -O2 -shared -fPIC -o armcount.so armcount.c -lpthread
 * Load:  qemu-aarch64 -plugin ./armcount.so,out=counts.txt[,pcs=on] prog
 * (the dynamic QEMU of Debian's qemu-user: a static QEMU cannot load
 * plugins).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the QEMU plugin API (version 1), declared by hand --- */
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t; /* not read */
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t, void *userdata);
typedef void (*qemu_plugin_vcpu_syscall_cb_t)(qemu_plugin_id_t, unsigned int vcpu_index,
                                              int64_t num, uint64_t a1, uint64_t a2,
                                              uint64_t a3, uint64_t a4, uint64_t a5,
                                              uint64_t a6, uint64_t a7, uint64_t a8);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, qemu_plugin_vcpu_tb_trans_cb_t);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *, qemu_plugin_vcpu_udata_cb_t,
                                          enum qemu_plugin_cb_flags, void *userdata);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t, qemu_plugin_vcpu_syscall_cb_t);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, qemu_plugin_udata_cb_t, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *);

#define EXPORT __attribute__((visibility("default")))
EXPORT int qemu_plugin_version = 1;

/* --- state --- */

/* One translated block: where it starts, how many instructions and
 * multiplies it holds, how often it ran. A block translated again (after a
 * flush of the code cache) finds its entry by (pc, n, m). */
struct block {
	uint64_t pc;
	uint32_t n, m;
	int sysmon;     /* starts inside the excluded range */
	uint64_t execs; /* updated atomically: guest threads run in parallel */
	struct block *next;
};

#define NBUCKETS (1u << 16)
static struct block *buckets[NBUCKETS];
static struct block **all; /* every entry, for the per-block report */
static size_t nall, capall;

/* Counts per guest thread (vCPU), each written by its own thread only. A
 * thread that runs a block of the excluded range (the Go runtime's sysmon,
 * whose work follows the wall clock, not the program) is not counted from
 * then on. */
#define MAXVCPUS 4096
struct vcpu {
	uint64_t insns, muls;
	int excluded;
};
static struct vcpu vcpus[MAXVCPUS];
static uint64_t overflow_insns, overflow_muls; /* vCPUs past MAXVCPUS, atomically */

struct mark {
	uint64_t len, insns, muls;
};
static struct mark *marks;
static size_t nmarks, capmarks;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *out;
static int per_block;
static int x86; /* guest is x86_64: write is syscall 1, multiplies not told apart */
static uint64_t skip_lo, skip_hi; /* excluded range [skip_lo, skip_hi) */

enum { SYS_WRITE_ARM64 = 64, SYS_WRITE_X86_64 = 1 };

static int is_multiply(uint32_t w) { return ((w >> 24) & 0x1f) == 0x1b; }

static void *grow(void *p, size_t *cap, size_t elem) {
	*cap = *cap ? 2 * *cap : 1024;
	p = realloc(p, *cap * elem);
	if (!p) {
		fputs("armcount: out of memory\n", stderr);
		abort();
	}
	return p;
}

static struct block *lookup(uint64_t pc, uint32_t n, uint32_t m) {
	size_t h = (size_t)((pc >> 2) * 0x9e3779b97f4a7c15ull >> 48) & (NBUCKETS - 1);
	pthread_mutex_lock(&lock);
	struct block *b = buckets[h];
	while (b && !(b->pc == pc && b->n == n && b->m == m))
		b = b->next;
	if (!b) {
		b = calloc(1, sizeof *b);
		if (!b) {
			fputs("armcount: out of memory\n", stderr);
			abort();
		}
		b->pc = pc, b->n = n, b->m = m;
		b->sysmon = pc >= skip_lo && pc < skip_hi;
		b->next = buckets[h];
		buckets[h] = b;
		if (nall == capall)
			all = grow(all, &capall, sizeof *all);
		all[nall++] = b;
	}
	pthread_mutex_unlock(&lock);
	return b;
}

/* sum returns the instructions and multiplies counted so far. */
static void sum(uint64_t *insns, uint64_t *muls) {
	uint64_t i = __atomic_load_n(&overflow_insns, __ATOMIC_RELAXED);
	uint64_t m = __atomic_load_n(&overflow_muls, __ATOMIC_RELAXED);
	for (size_t k = 0; k < MAXVCPUS; k++) {
		i += __atomic_load_n(&vcpus[k].insns, __ATOMIC_RELAXED);
		m += __atomic_load_n(&vcpus[k].muls, __ATOMIC_RELAXED);
	}
	*insns = i, *muls = m;
}

/* --- callbacks --- */

static void on_exec(unsigned int vcpu, void *udata) {
	struct block *b = udata;
	if (vcpu >= MAXVCPUS) {
		__atomic_fetch_add(&overflow_insns, b->n, __ATOMIC_RELAXED);
		__atomic_fetch_add(&overflow_muls, b->m, __ATOMIC_RELAXED);
	} else {
		struct vcpu *v = &vcpus[vcpu];
		if (v->excluded)
			return;
		if (b->sysmon) {
			v->excluded = 1;
			return;
		}
		/* Only this thread writes v; the atomic stores let the
		 * thread that sums read whole values. */
		__atomic_store_n(&v->insns, v->insns + b->n, __ATOMIC_RELAXED);
		__atomic_store_n(&v->muls, v->muls + b->m, __ATOMIC_RELAXED);
	}
	if (per_block)
		__atomic_fetch_add(&b->execs, 1, __ATOMIC_RELAXED);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
	size_t n = qemu_plugin_tb_n_insns(tb);
	uint32_t m = 0;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		if (qemu_plugin_insn_size(insn) != 4)
			continue;
		uint32_t w;
		memcpy(&w, qemu_plugin_insn_data(insn), 4); /* little-endian guest and host */
		m += !x86 && is_multiply(w);
	}
	struct block *b = lookup(qemu_plugin_tb_vaddr(tb), (uint32_t)n, m);
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t fd,
                       uint64_t buf, uint64_t len, uint64_t a4, uint64_t a5, uint64_t a6,
                       uint64_t a7, uint64_t a8) {
	if (num != (x86 ? SYS_WRITE_X86_64 : SYS_WRITE_ARM64) || fd != 1)
		return;
	pthread_mutex_lock(&lock);
	if (nmarks == capmarks)
		marks = grow(marks, &capmarks, sizeof *marks);
	struct mark *k = &marks[nmarks++];
	k->len = len;
	sum(&k->insns, &k->muls);
	pthread_mutex_unlock(&lock);
}

static void on_guest_exit(qemu_plugin_id_t id, void *udata) {
	uint64_t insns, muls;
	pthread_mutex_lock(&lock);
	for (size_t k = 0; k < nmarks; k++)
		fprintf(out, "mark %llu %llu %llu\n", (unsigned long long)marks[k].len,
		        (unsigned long long)marks[k].insns, (unsigned long long)marks[k].muls);
	sum(&insns, &muls);
	fprintf(out, "total %llu %llu\n", (unsigned long long)insns, (unsigned long long)muls);
	if (per_block)
		for (size_t k = 0; k < nall; k++) {
			uint64_t e = __atomic_load_n(&all[k]->execs, __ATOMIC_RELAXED);
			if (e)
				fprintf(out, "tb %llx %u %u %llu\n", (unsigned long long)all[k]->pc,
				        all[k]->n, all[k]->m, (unsigned long long)e);
		}
	fclose(out);
	pthread_mutex_unlock(&lock);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                               char **argv) {
	const char *path = NULL;
	for (int i = 0; i < argc; i++) {
		if (strncmp(argv[i], "out=", 4) == 0)
			path = argv[i] + 4;
		else if (strcmp(argv[i], "pcs=on") == 0)
			per_block = 1;
		else if (strcmp(argv[i], "arch=x86_64") == 0)
			x86 = 1;
		else if (sscanf(argv[i], "skip=%" SCNx64 "-%" SCNx64, &skip_lo, &skip_hi) == 2)
			;
		else if (strcmp(argv[i], "pcs=off") != 0 && strcmp(argv[i], "arch=aarch64") != 0) {
			fprintf(stderr, "armcount: unknown argument %s (want out=PATH, pcs=on|off, "
			                "arch=aarch64|x86_64, skip=START-END in hex)\n", argv[i]);
			return -1;
		}
	}
	if (!path) {
		fputs("armcount: missing argument out=PATH\n", stderr);
		return -1;
	}
	if (!(out = fopen(path, "w"))) {
		perror(path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
	qemu_plugin_register_atexit_cb(id, on_guest_exit, NULL);
	return 0;
}
