/* A small TLS client on mbed TLS 2.28 for the interop matrix.
 *
 *   client PORT NAME CAFILE VERSION SUITE HASH CERTCHAIN KEY LINE
 *
 * Connects to 127.0.0.1:PORT, sends NAME as SNI and verifies the chain and
 * the name, sends LINE and prints what it reads until the server closes.
 * VERSION is 1.2, 1.1, 1.0 or "" (any); SUITE an IANA suite name or "";
 * HASH sha256, sha384 or sha512 (the only hash offered for signatures) or
 * ""; CERTCHAIN/KEY a client certificate or "". Exit status 0 on success,
 * 1 on any failure (with the reason printed).
 */
#include <mbedtls/ctr_drbg.h>
#include <mbedtls/entropy.h>
#include <mbedtls/error.h>
#include <mbedtls/net_sockets.h>
#include <mbedtls/ssl.h>
#include <mbedtls/x509_crt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(int ret, const char *what) {
	char buf[256];
	mbedtls_strerror(ret, buf, sizeof buf);
	printf("error: %s: -0x%04x %s\n", what, (unsigned)-ret, buf);
	exit(1);
}

int main(int argc, char **argv) {
	if (argc != 10) {
		fprintf(stderr, "usage: client PORT NAME CAFILE VERSION SUITE HASH CERTCHAIN KEY LINE\n");
		return 2;
	}
	const char *port = argv[1], *name = argv[2], *ca = argv[3], *ver = argv[4], *suite = argv[5],
		   *hash = argv[6], *chain = argv[7], *keyfile = argv[8], *line = argv[9];
	mbedtls_net_context net;
	mbedtls_ssl_context ssl;
	mbedtls_ssl_config conf;
	mbedtls_x509_crt cacert, own;
	mbedtls_pk_context key;
	mbedtls_entropy_context entropy;
	mbedtls_ctr_drbg_context drbg;
	int ret;
	mbedtls_net_init(&net);
	mbedtls_ssl_init(&ssl);
	mbedtls_ssl_config_init(&conf);
	mbedtls_x509_crt_init(&cacert);
	mbedtls_x509_crt_init(&own);
	mbedtls_pk_init(&key);
	mbedtls_entropy_init(&entropy);
	mbedtls_ctr_drbg_init(&drbg);
	if ((ret = mbedtls_ctr_drbg_seed(&drbg, mbedtls_entropy_func, &entropy, NULL, 0)) != 0)
		fail(ret, "ctr_drbg_seed");
	if ((ret = mbedtls_x509_crt_parse_file(&cacert, ca)) != 0)
		fail(ret, "x509_crt_parse_file");
	if ((ret = mbedtls_ssl_config_defaults(&conf, MBEDTLS_SSL_IS_CLIENT, MBEDTLS_SSL_TRANSPORT_STREAM,
					       MBEDTLS_SSL_PRESET_DEFAULT)) != 0)
		fail(ret, "ssl_config_defaults");
	mbedtls_ssl_conf_authmode(&conf, MBEDTLS_SSL_VERIFY_REQUIRED);
	mbedtls_ssl_conf_ca_chain(&conf, &cacert, NULL);
	mbedtls_ssl_conf_rng(&conf, mbedtls_ctr_drbg_random, &drbg);
	int minor = -1;
	if (!strcmp(ver, "1.2"))
		minor = MBEDTLS_SSL_MINOR_VERSION_3;
	else if (!strcmp(ver, "1.1"))
		minor = MBEDTLS_SSL_MINOR_VERSION_2;
	else if (!strcmp(ver, "1.0"))
		minor = MBEDTLS_SSL_MINOR_VERSION_1;
	if (minor >= 0) {
		mbedtls_ssl_conf_min_version(&conf, MBEDTLS_SSL_MAJOR_VERSION_3, minor);
		mbedtls_ssl_conf_max_version(&conf, MBEDTLS_SSL_MAJOR_VERSION_3, minor);
	}
	static int suites[2];
	if (*suite) {
		const mbedtls_ssl_ciphersuite_t *cs = mbedtls_ssl_ciphersuite_from_string(suite);
		if (!cs) {
			printf("error: unknown suite %s\n", suite);
			return 1;
		}
		suites[0] = cs->id;
		mbedtls_ssl_conf_ciphersuites(&conf, suites);
	}
	static int hashes[4];
	if (*hash) {
		int h = !strcmp(hash, "sha256") ? MBEDTLS_MD_SHA256 : !strcmp(hash, "sha384") ? MBEDTLS_MD_SHA384 : MBEDTLS_MD_SHA512;
		hashes[0] = h;
		hashes[1] = MBEDTLS_MD_NONE;
		mbedtls_ssl_conf_sig_hashes(&conf, hashes);
	}
	if (*chain) {
		if ((ret = mbedtls_x509_crt_parse_file(&own, chain)) != 0)
			fail(ret, "x509_crt_parse_file (client)");
		if ((ret = mbedtls_pk_parse_keyfile(&key, keyfile, NULL)) != 0)
			fail(ret, "pk_parse_keyfile");
		if ((ret = mbedtls_ssl_conf_own_cert(&conf, &own, &key)) != 0)
			fail(ret, "ssl_conf_own_cert");
	}
	if ((ret = mbedtls_ssl_setup(&ssl, &conf)) != 0)
		fail(ret, "ssl_setup");
	if ((ret = mbedtls_ssl_set_hostname(&ssl, name)) != 0)
		fail(ret, "ssl_set_hostname");
	if ((ret = mbedtls_net_connect(&net, "127.0.0.1", port, MBEDTLS_NET_PROTO_TCP)) != 0)
		fail(ret, "net_connect");
	mbedtls_ssl_set_bio(&ssl, &net, mbedtls_net_send, mbedtls_net_recv, NULL);
	while ((ret = mbedtls_ssl_handshake(&ssl)) != 0) {
		if (ret != MBEDTLS_ERR_SSL_WANT_READ && ret != MBEDTLS_ERR_SSL_WANT_WRITE) {
			uint32_t flags = mbedtls_ssl_get_verify_result(&ssl);
			if (flags) {
				char vbuf[512];
				mbedtls_x509_crt_verify_info(vbuf, sizeof vbuf, "verify: ", flags);
				printf("%s", vbuf);
			}
			fail(ret, "ssl_handshake");
		}
	}
	printf("negotiated %s %s\n", mbedtls_ssl_get_version(&ssl), mbedtls_ssl_get_ciphersuite(&ssl));
	fflush(stdout);
	size_t n = strlen(line);
	while ((ret = mbedtls_ssl_write(&ssl, (const unsigned char *)line, n)) <= 0) {
		if (ret != MBEDTLS_ERR_SSL_WANT_READ && ret != MBEDTLS_ERR_SSL_WANT_WRITE)
			fail(ret, "ssl_write");
	}
	unsigned char buf[4096];
	for (;;) {
		ret = mbedtls_ssl_read(&ssl, buf, sizeof buf);
		if (ret == MBEDTLS_ERR_SSL_WANT_READ || ret == MBEDTLS_ERR_SSL_WANT_WRITE)
			continue;
		if (ret == MBEDTLS_ERR_SSL_PEER_CLOSE_NOTIFY || ret == 0 || ret == MBEDTLS_ERR_NET_CONN_RESET)
			break;
		if (ret < 0)
			fail(ret, "ssl_read");
		fwrite(buf, 1, (size_t)ret, stdout);
		fflush(stdout);
	}
	mbedtls_ssl_close_notify(&ssl);
	mbedtls_net_free(&net);
	return 0;
}
