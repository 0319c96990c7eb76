package provider_test

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/p256tls/p256tls/provider"

	"github.com/p256tls/p256tls/truststore"
)

// An HTTPS client for a server known by its IP address: the Dialer hooks
// each connection with the name it is for ("127.0.0.1" here, taken from the
// address), which a Config from HookClientConfig cannot see.
func ExampleDialer() {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "hello")
	}))
	defer srv.Close()

	store, err := truststore.New([]*x509.Certificate{srv.Certificate()}) // the anchors to trust
	if err != nil {
		log.Fatal(err)
	}
	d := &provider.Dialer{Store: store}
	client := &http.Client{Transport: &http.Transport{DialTLSContext: d.DialContext}}
	defer client.CloseIdleConnections()

	resp, err := client.Get(srv.URL) // https://127.0.0.1:port
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, string(body))
	// Output: 200 OK hello
}

// An HTTPS client whose server chains are verified by a trust store instead
// of RootCAs; the server's leaf names example.com.
func ExampleHookClientConfig() {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "hello")
	}))
	defer srv.Close()

	store, err := truststore.New([]*x509.Certificate{srv.Certificate()})
	if err != nil {
		log.Fatal(err)
	}
	cfg := provider.HookClientConfig(&tls.Config{ServerName: "example.com"}, store)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg}}
	defer client.CloseIdleConnections()

	resp, err := client.Get(srv.URL)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, string(body))
	// Output: 200 OK hello
}
