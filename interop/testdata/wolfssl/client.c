/* A small TLS client on wolfSSL for the interop matrix.
 *
 *   client PORT NAME CAFILE VERSION SUITE SIGALGS CERTCHAIN KEY LINE
 *
 * Connects to 127.0.0.1:PORT, sends NAME as SNI and checks the certificate
 * against it, sends LINE and prints what it reads until the server closes.
 * VERSION is 1.3, 1.2, 1.1 or "" (any); SUITE an OpenSSL-style name or "";
 * SIGALGS e.g. "ECDSA+SHA384" or ""; CERTCHAIN/KEY a client certificate or
 * "". Exit status 0 on success, 1 on any failure (with the reason printed).
 */
#include <wolfssl/options.h>
#include <wolfssl/ssl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void fail(WOLFSSL *ssl, int ret, const char *what) {
	char buf[WOLFSSL_MAX_ERROR_SZ];
	int err = ssl ? wolfSSL_get_error(ssl, ret) : ret;
	printf("error: %s: %d %s\n", what, err, wolfSSL_ERR_error_string(err, buf));
	exit(1);
}

int main(int argc, char **argv) {
	if (argc != 10) {
		fprintf(stderr, "usage: client PORT NAME CAFILE VERSION SUITE SIGALGS CERTCHAIN KEY LINE\n");
		return 2;
	}
	const char *port = argv[1], *name = argv[2], *ca = argv[3], *ver = argv[4], *suite = argv[5],
		   *sigalgs = argv[6], *chain = argv[7], *key = argv[8], *line = argv[9];
	wolfSSL_Init();
	WOLFSSL_METHOD *m;
	if (!strcmp(ver, "1.3"))
		m = wolfTLSv1_3_client_method();
	else if (!strcmp(ver, "1.2"))
		m = wolfTLSv1_2_client_method();
	else if (!strcmp(ver, "1.1"))
		m = wolfTLSv1_1_client_method();
	else
		m = wolfSSLv23_client_method();
	WOLFSSL_CTX *ctx = wolfSSL_CTX_new(m);
	if (!ctx)
		fail(NULL, 0, "CTX_new");
	int ret;
	if ((ret = wolfSSL_CTX_load_verify_locations(ctx, ca, NULL)) != WOLFSSL_SUCCESS)
		fail(NULL, ret, "load_verify_locations");
	wolfSSL_CTX_set_verify(ctx, WOLFSSL_VERIFY_PEER, NULL);
	if (*suite && (ret = wolfSSL_CTX_set_cipher_list(ctx, suite)) != WOLFSSL_SUCCESS)
		fail(NULL, ret, "set_cipher_list");
	if (*sigalgs && (ret = wolfSSL_CTX_set1_sigalgs_list(ctx, sigalgs)) != WOLFSSL_SUCCESS)
		fail(NULL, ret, "set1_sigalgs_list");
	if (*chain) {
		if ((ret = wolfSSL_CTX_use_certificate_chain_file(ctx, chain)) != WOLFSSL_SUCCESS)
			fail(NULL, ret, "use_certificate_chain_file");
		if ((ret = wolfSSL_CTX_use_PrivateKey_file(ctx, key, WOLFSSL_FILETYPE_PEM)) != WOLFSSL_SUCCESS)
			fail(NULL, ret, "use_PrivateKey_file");
	}
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = {0};
	sa.sin_family = AF_INET;
	sa.sin_port = htons((unsigned short)atoi(port));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		perror("error: connect");
		return 1;
	}
	WOLFSSL *ssl = wolfSSL_new(ctx);
	wolfSSL_set_fd(ssl, fd);
	if ((ret = wolfSSL_UseSNI(ssl, WOLFSSL_SNI_HOST_NAME, name, (unsigned short)strlen(name))) != WOLFSSL_SUCCESS)
		fail(NULL, ret, "UseSNI");
	if ((ret = wolfSSL_check_domain_name(ssl, name)) != WOLFSSL_SUCCESS)
		fail(NULL, ret, "check_domain_name");
	if ((ret = wolfSSL_connect(ssl)) != WOLFSSL_SUCCESS)
		fail(ssl, ret, "connect");
	printf("negotiated %s %s\n", wolfSSL_get_version(ssl), wolfSSL_get_cipher_name(ssl));
	fflush(stdout);
	if ((ret = wolfSSL_write(ssl, line, (int)strlen(line))) <= 0)
		fail(ssl, ret, "write");
	char buf[4096];
	for (;;) {
		ret = wolfSSL_read(ssl, buf, sizeof buf);
		if (ret <= 0) {
			int err = wolfSSL_get_error(ssl, ret);
			if (err == WOLFSSL_ERROR_ZERO_RETURN || err == SOCKET_PEER_CLOSED_E || err == WOLFSSL_ERROR_SYSCALL)
				break;
			fail(ssl, ret, "read");
		}
		fwrite(buf, 1, (size_t)ret, stdout);
		fflush(stdout);
	}
	wolfSSL_shutdown(ssl);
	wolfSSL_free(ssl);
	close(fd);
	wolfSSL_CTX_free(ctx);
	wolfSSL_Cleanup();
	return 0;
}
