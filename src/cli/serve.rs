//! `koma serve`: the browser page and its API on a local address.

use std::io::Write;

use clap::Args;
use koma::Error;
use koma::server::{Config, Server};

/// Arguments of `koma serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on. Only this machine can reach the default; any
    /// other address lets the network play (and think) on this machine.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
}

/// Serves until the process is stopped.
pub fn run(args: &ServeArgs, out: &mut dyn Write) -> Result<(), Error> {
    let server = Server::bind(&args.addr, Config::default())?;
    let addr = server.addr();
    if !addr.ip().is_loopback() {
        eprintln!(
            "koma: warning: listening on {addr}, which other machines may reach; \
             use --addr 127.0.0.1:PORT to keep it to this one"
        );
    }
    let host = if addr.ip().is_unspecified() {
        "127.0.0.1".to_string()
    } else {
        addr.ip().to_string()
    };
    let url = if addr.is_ipv6() {
        format!("http://[{host}]:{}/", addr.port())
    } else {
        format!("http://{host}:{}/", addr.port())
    };
    writeln!(out, "koma: serving on {url}").map_err(Error::io("write the output"))?;
    out.flush().map_err(Error::io("write the output"))?;
    server.run();
    Ok(())
}
