// A small TLS client and echo server on rustls 0.20 for the interop matrix.
//
//   rustls-peer client PORT NAME CAFILE VERSION SUITE CERTCHAIN KEY LINE
//   rustls-peer server PORT -    CAFILE VERSION -     CERTCHAIN KEY REQUIRE
//
// VERSION is 1.3, 1.2 or "" (both); SUITE an IANA suite name or "". The
// client connects to 127.0.0.1:PORT, verifies NAME, sends LINE and prints
// what it reads until the server closes; exit status 1 on failure. The
// server echoes the first line of each connection; with REQUIRE = require
// it demands a client certificate issued under CAFILE.
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::exit;
use std::sync::Arc;
use std::time::Duration;

fn certs(path: &str) -> Vec<rustls::Certificate> {
    let mut r = BufReader::new(File::open(path).unwrap_or_else(|e| die(&format!("{}: {}", path, e))));
    rustls_pemfile::certs(&mut r)
        .unwrap_or_else(|e| die(&format!("{}: {}", path, e)))
        .into_iter()
        .map(rustls::Certificate)
        .collect()
}

fn key(path: &str) -> rustls::PrivateKey {
    let mut r = BufReader::new(File::open(path).unwrap_or_else(|e| die(&format!("{}: {}", path, e))));
    let mut keys = rustls_pemfile::pkcs8_private_keys(&mut r).unwrap_or_else(|e| die(&format!("{}: {}", path, e)));
    if keys.is_empty() {
        die(&format!("{}: no PKCS #8 key", path));
    }
    rustls::PrivateKey(keys.remove(0))
}

fn die(msg: &str) -> ! {
    println!("error: {}", msg);
    exit(1)
}

fn roots(path: &str) -> rustls::RootCertStore {
    let mut store = rustls::RootCertStore::empty();
    for c in certs(path) {
        store.add(&c).unwrap_or_else(|e| die(&format!("root: {:?}", e)));
    }
    store
}

fn versions(v: &str) -> Vec<&'static rustls::SupportedProtocolVersion> {
    match v {
        "1.3" => vec![&rustls::version::TLS13],
        "1.2" => vec![&rustls::version::TLS12],
        _ => rustls::ALL_VERSIONS.to_vec(),
    }
}

fn suites(name: &str) -> Vec<rustls::SupportedCipherSuite> {
    if name.is_empty() {
        return rustls::ALL_CIPHER_SUITES.to_vec();
    }
    let v: Vec<_> = rustls::ALL_CIPHER_SUITES
        .iter()
        .copied()
        .filter(|s| format!("{:?}", s.suite()) == name)
        .collect();
    if v.is_empty() {
        die(&format!("unknown suite {}", name));
    }
    v
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() != 10 {
        eprintln!("usage: rustls-peer client|server PORT NAME CAFILE VERSION SUITE CERTCHAIN KEY LINE|REQUIRE");
        exit(2);
    }
    let port: u16 = a[2].parse().unwrap_or_else(|_| die("bad port"));
    if a[1] == "client" {
        client(port, &a[3], &a[4], &a[5], &a[6], &a[7], &a[8], &a[9]);
    } else {
        server(port, &a[4], &a[5], &a[7], &a[8], a[9] == "require");
    }
}

#[allow(clippy::too_many_arguments)]
fn client(port: u16, name: &str, ca: &str, ver: &str, suite: &str, chain: &str, keyfile: &str, line: &str) {
    let builder = rustls::ClientConfig::builder()
        .with_cipher_suites(&suites(suite))
        .with_safe_default_kx_groups()
        .with_protocol_versions(&versions(ver))
        .unwrap_or_else(|e| die(&format!("config: {}", e)))
        .with_root_certificates(roots(ca));
    let cfg = if chain.is_empty() {
        builder.with_no_client_auth()
    } else {
        builder
            .with_single_cert(certs(chain), key(keyfile))
            .unwrap_or_else(|e| die(&format!("client cert: {}", e)))
    };
    let server_name = rustls::ServerName::try_from(name).unwrap_or_else(|e| die(&format!("name: {}", e)));
    let mut conn = rustls::ClientConnection::new(Arc::new(cfg), server_name).unwrap_or_else(|e| die(&format!("{}", e)));
    let mut sock = TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| die(&format!("connect: {}", e)));
    sock.set_read_timeout(Some(Duration::from_secs(15))).ok();
    let mut tls = rustls::Stream::new(&mut conn, &mut sock);
    if let Err(e) = tls.write_all(line.as_bytes()) {
        die(&format!("handshake/write: {}", e));
    }
    println!(
        "negotiated {:?} {:?}",
        tls.conn.protocol_version().unwrap(),
        tls.conn.negotiated_cipher_suite().unwrap().suite()
    );
    let mut buf = Vec::new();
    let res = tls.read_to_end(&mut buf);
    print!("{}", String::from_utf8_lossy(&buf));
    if let Err(e) = res {
        die(&format!("read: {}", e));
    }
}

fn server(port: u16, ca: &str, ver: &str, chain: &str, keyfile: &str, require: bool) {
    let builder = rustls::ServerConfig::builder()
        .with_safe_default_cipher_suites()
        .with_safe_default_kx_groups()
        .with_protocol_versions(&versions(ver))
        .unwrap_or_else(|e| die(&format!("config: {}", e)));
    let builder = if require {
        builder.with_client_cert_verifier(rustls::server::AllowAnyAuthenticatedClient::new(roots(ca)))
    } else {
        builder.with_no_client_auth()
    };
    let cfg = Arc::new(
        builder
            .with_single_cert(certs(chain), key(keyfile))
            .unwrap_or_else(|e| die(&format!("server cert: {}", e))),
    );
    let listener = TcpListener::bind(("127.0.0.1", port)).unwrap_or_else(|e| die(&format!("bind: {}", e)));
    println!("READY {}", port);
    for stream in listener.incoming() {
        let mut sock = match stream {
            Ok(s) => s,
            Err(_) => continue,
        };
        sock.set_read_timeout(Some(Duration::from_secs(15))).ok();
        let mut conn = rustls::ServerConnection::new(cfg.clone()).unwrap();
        let mut tls = rustls::Stream::new(&mut conn, &mut sock);
        let mut line = String::new();
        let res = BufReader::new(&mut tls).read_line(&mut line);
        match res {
            Ok(_) => {
                let _ = tls.write_all(line.as_bytes());
                tls.conn.send_close_notify();
                let _ = tls.flush();
                println!("served {:?}", tls.conn.protocol_version());
            }
            Err(e) => println!("error: {}", e),
        }
    }
}
