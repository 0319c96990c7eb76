package provider_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/p256tls/p256tls/provider"
)

// writeExampleFiles stands in for your certificate tooling: it writes a
// self-signed P-256 certificate for name (and 127.0.0.1) and its key to dir,
// and returns the file names and a pool trusting the certificate.
func writeExampleFiles(dir, name string) (certFile, keyFile string, roots *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		log.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: name},
		DNSNames:     []string{name},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		log.Fatal(err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		log.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8}), 0o600); err != nil {
		log.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	roots = x509.NewCertPool()
	roots.AddCert(cert)
	return certFile, keyFile, roots
}

// An HTTPS server whose P-256 handshake signatures are made by the comb and
// checked before they leave the process.
func ExampleServerConfig() {
	dir, _ := os.MkdirTemp("", "p256tls-example")
	defer os.RemoveAll(dir)
	certFile, keyFile, roots := writeExampleFiles(dir, "server.example")

	// The server: load the identity, hand its config to net/http.
	ids, err := provider.LoadIdentities(provider.Files{CertFile: certFile, KeyFile: keyFile})
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{
		TLSConfig: provider.ServerConfig(ids),
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintln(w, "hello over", tls.VersionName(r.TLS.Version))
		}),
	}
	go srv.ServeTLS(ln, "", "") // certificates come from TLSConfig
	defer srv.Close()

	// A client, to show it working.
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Get("https://" + ln.Addr().String() + "/")
	if err != nil {
		log.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Print(string(body))

	st := ids.Stats()
	fmt.Printf("comb signatures %d, checks %d, faults %d, fallbacks %d\n",
		st.Signatures, st.Checks, st.FaultsDetected, st.Fallbacks)
	// Output:
	// hello over TLS 1.3
	// comb signatures 1, checks 1, faults 0, fallbacks 0
}

// A client presenting a provider identity to a server that requires client
// certificates (mutual TLS).
func ExampleIdentity_Certificate() {
	dir, _ := os.MkdirTemp("", "p256tls-example")
	defer os.RemoveAll(dir)
	serverCert, serverKey, serverRoots := writeExampleFiles(dir, "server.example")
	clientCert, clientKey, clientRoots := writeExampleFiles(dir, "client.example")

	// The server, requiring a client certificate.
	serverID, err := provider.LoadIdentity(serverCert, serverKey)
	if err != nil {
		log.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{
		Certificates: []tls.Certificate{*serverID.Certificate()},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ClientCAs:    clientRoots,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		tc := c.(*tls.Conn)
		if err := tc.Handshake(); err != nil {
			return
		}
		fmt.Fprintf(tc, "hello %s\n", tc.ConnectionState().PeerCertificates[0].Subject.CommonName)
	}()

	// The client: its identity signs the CertificateVerify message.
	clientID, err := provider.LoadIdentity(clientCert, clientKey)
	if err != nil {
		log.Fatal(err)
	}
	conn, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{
		RootCAs: serverRoots,
		GetClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
			return clientID.Certificate(), nil
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	reply, _ := io.ReadAll(conn)
	fmt.Print(string(reply))
	fmt.Println("client's checked signatures:", clientID.Stats().Signatures)
	// Output:
	// hello client.example
	// client's checked signatures: 1
}

// Turning an existing server configuration into a provider-backed one: every
// certificate keeps its place, P-256 keys get the checked comb signer.
func ExampleHookServerConfig() {
	dir, _ := os.MkdirTemp("", "p256tls-example")
	defer os.RemoveAll(dir)
	certFile, keyFile, _ := writeExampleFiles(dir, "server.example")

	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		log.Fatal(err)
	}
	existing := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	cfg, err := provider.HookServerConfig(existing)
	if err != nil {
		log.Fatal(err)
	}
	_, raw := cfg.Certificates[0].PrivateKey.(*ecdsa.PrivateKey)
	fmt.Println("signs with the raw key:", raw)
	// Output:
	// signs with the raw key: false
}

// Reloading certificates when they are renewed on disk.
func ExampleIdentities_Watch() {
	ids, err := provider.LoadIdentities(
		provider.Files{CertFile: "/etc/tls/example.com.crt", KeyFile: "/etc/tls/example.com.key"},
		provider.Files{CertFile: "/etc/tls/example.org.crt", KeyFile: "/etc/tls/example.org.key"},
	)
	if err != nil {
		log.Fatal(err)
	}
	// Poll the files every 30 s; a renewed pair is loaded (its table built)
	// and swapped in; a bad file is logged and the previous identity kept.
	go ids.Watch(context.Background(), 30*time.Second, func(err error) {
		log.Printf("certificate reload: %v", err)
	})
	mux := http.NewServeMux() // not http.DefaultServeMux, which serves /debug/vars
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello\n") })
	srv := &http.Server{Addr: ":443", Handler: mux, TLSConfig: provider.ServerConfig(ids)}
	log.Fatal(srv.ListenAndServeTLS("", ""))
}

// Serving Identities from a configuration the application already has: set
// its GetCertificate (HookServerConfig is for configurations whose
// certificates come from elsewhere). Each handshake picks its identity by
// SNI, so a Reload takes effect on the next handshake.
func ExampleIdentities_GetCertificate() {
	dir, _ := os.MkdirTemp("", "p256tls-example")
	defer os.RemoveAll(dir)
	certFile, keyFile, roots := writeExampleFiles(dir, "server.example")
	ids, err := provider.LoadIdentities(provider.Files{CertFile: certFile, KeyFile: keyFile})
	if err != nil {
		log.Fatal(err)
	}
	existing := &tls.Config{MinVersion: tls.VersionTLS13, NextProtos: []string{"h2", "http/1.1"}}
	existing.GetCertificate = ids.GetCertificate

	ln, err := tls.Listen("tcp", "127.0.0.1:0", existing)
	if err != nil {
		log.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			c.(*tls.Conn).Handshake()
			c.Close()
		}
	}()
	conn, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{RootCAs: roots, ServerName: "server.example"})
	if err != nil {
		log.Fatal(err)
	}
	conn.Close()
	fmt.Println("checked signatures:", ids.Stats().Signatures)
	// Output:
	// checked signatures: 1
}
