//! `--http ADDR`: the streamable HTTP transport at `http://ADDR/mcp`, one
//! session per client, served with hyper (HTTP/1.1). Loopback addresses
//! only unless `--allow-remote`; rmcp checks the `Host` header against the
//! loopback names (DNS rebinding), a check `--allow-remote` lifts.

use super::log;
use super::server::{Server, Shared};
use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use tower_service::Service as _;

/// The one path the server answers.
pub const PATH: &str = "/mcp";

/// Parses `--http`: `IP:PORT`, or `localhost:PORT` (127.0.0.1); port 0
/// picks a free one. A non-loopback address needs `allow_remote`.
pub fn parse_address(text: &str, allow_remote: bool) -> Result<SocketAddr, String> {
    let addr = match text.parse::<SocketAddr>() {
        Ok(addr) => addr,
        Err(_) => match text.rsplit_once(':') {
            Some((host, port)) if host.eq_ignore_ascii_case("localhost") => {
                let port: u16 = port.parse().map_err(|_| {
                    format!("invalid --http {text:?}: the port is not a number from 0 to 65535")
                })?;
                SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port)
            }
            _ => {
                return Err(format!(
                    "invalid --http {text:?}: expected IP:PORT, e.g. 127.0.0.1:8080 or [::1]:8080"
                ));
            }
        },
    };
    if !addr.ip().is_loopback() && !allow_remote {
        let loopback = match addr.ip() {
            IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::LOCALHOST),
        };
        return Err(format!(
            "refusing --http {addr}: not a loopback address, so other machines could run the tools; use {} or add --allow-remote (and put authentication in front)",
            SocketAddr::new(loopback, addr.port())
        ));
    }
    Ok(addr)
}

/// Binds `addr` and serves until `shutdown` resolves.
pub async fn serve(
    shared: Arc<Shared>,
    addr: SocketAddr,
    allow_remote: bool,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    let mut config = StreamableHttpServerConfig::default();
    if allow_remote {
        config = config.disable_allowed_hosts();
    }
    let stop = config.cancellation_token.clone();
    let factory = {
        let shared = Arc::clone(&shared);
        move || Ok(Server::new(Arc::clone(&shared)))
    };
    let service =
        StreamableHttpService::new(factory, Arc::new(LocalSessionManager::default()), config);
    log(format!(
        "toolsmith: serving {} tools over MCP at http://{local}{PATH}",
        shared.tools().listed.len()
    ));
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => stream,
                    Err(e) => {
                        log(format!("toolsmith: accept failed: {e}"));
                        continue;
                    }
                };
                let service = service.clone();
                tokio::spawn(async move {
                    let handler = hyper::service::service_fn(move |req| route(service.clone(), req));
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), handler)
                        .await;
                });
            }
            () = &mut shutdown => break,
        }
    }
    stop.cancel();
    Ok(())
}

type Body = BoxBody<Bytes, Infallible>;

/// `/mcp` goes to the MCP service; anything else is 404.
async fn route(
    mut service: StreamableHttpService<Server, LocalSessionManager>,
    req: Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    if req.uri().path() != PATH {
        let mut response = Response::new(
            Full::new(Bytes::from(format!(
                "not found: the MCP endpoint is {PATH}\n"
            )))
            .boxed(),
        );
        *response.status_mut() = StatusCode::NOT_FOUND;
        return Ok(response);
    }
    service.call(req).await
}

#[cfg(test)]
mod tests {
    use super::parse_address;

    #[test]
    fn loopback_only_unless_allowed() {
        assert_eq!(
            parse_address("127.0.0.1:8080", false).map(|a| a.to_string()),
            Ok("127.0.0.1:8080".into())
        );
        assert_eq!(
            parse_address("[::1]:0", false).map(|a| a.to_string()),
            Ok("[::1]:0".into())
        );
        assert_eq!(
            parse_address("localhost:9000", false).map(|a| a.to_string()),
            Ok("127.0.0.1:9000".into())
        );
        let refused = parse_address("0.0.0.0:8080", false).unwrap_err();
        assert!(
            refused.starts_with("refusing --http 0.0.0.0:8080: not a loopback address")
                && refused.contains("use 127.0.0.1:8080 or add --allow-remote"),
            "{refused}"
        );
        let refused = parse_address("[2001:db8::1]:80", false).unwrap_err();
        assert!(refused.contains("use [::1]:80"), "{refused}");
        assert!(parse_address("0.0.0.0:8080", true).is_ok());
        for bad in ["8080", "localhost", "localhost:99999", "example.com:80", ""] {
            assert!(parse_address(bad, true).is_err(), "{bad}");
        }
    }
}
