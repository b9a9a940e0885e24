//! `confluence-sim play`: a local web page where a person plays (docs/playing.md). The
//! server holds the games; the engine decides everything but the person's choices, which
//! are among its legal options only; every game is recorded in `--games-dir`.

mod advisor;
mod api;
mod deal;
mod others;
mod session;
mod table;

use std::io::Write;
use std::net::{IpAddr, SocketAddr};

use anyhow::{Context, Result};

use super::cli::PlayArgs;
use crate::job::error::usage;

/// Something a worker thread fills in later (the advisor's estimates, the simulated
/// players' results on the deal): here, beside the modules that share it, so that the
/// workers need not use the session that waits for them.
type Later = std::sync::Arc<std::sync::Mutex<Option<serde_json::Value>>>;

/// Request threads: a slow request (an opponent search thinking) leaves the others served.
const THREADS: usize = 4;

pub fn play(a: PlayArgs) -> Result<()> {
    let ip: IpAddr = a.listen.parse().map_err(|_| {
        usage(format!(
            "--listen {}: not an IP address (expected e.g. 127.0.0.1 or ::1)",
            a.listen
        ))
    })?;
    let t: &'static deal::Table = Box::leak(Box::new(deal::Table::load(&a)?));
    std::fs::create_dir_all(&t.games_dir)
        .with_context(|| format!("--games-dir {}", t.games_dir.display()))?;
    let addr = SocketAddr::new(ip, a.port);
    let server = tiny_http::Server::http(addr).map_err(|e| {
        let in_use = e
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::AddrInUse);
        if in_use {
            anyhow::anyhow!(
                "--port {}: {addr} is in use by another program; give another --port, or --port 0 for a free one",
                a.port
            )
        } else {
            anyhow::anyhow!("cannot listen on {addr}: {e}")
        }
    })?;
    let bound = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| anyhow::anyhow!("the server listens on no IP address"))?;
    let url = format!("http://{bound}/");
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "confluence-sim play: listening on {url}")?;
        writeln!(
            out,
            "Games are recorded in {}; stop the server with Ctrl-C.",
            t.games_dir.display()
        )?;
        out.flush()?;
    }
    if !a.no_browser && !open_browser(&url) {
        println!("No browser to open: open {url} in one.");
    }
    let app: &'static api::App = Box::leak(Box::new(api::App::new(t)));
    let server = std::sync::Arc::new(server);
    let workers: Vec<_> = (0..THREADS)
        .map(|_| {
            let server = server.clone();
            std::thread::spawn(move || {
                while let Ok(req) = server.recv() {
                    // An engine failure in one game leaves the server serving the others
                    // (that game's lock is poisoned: its requests get a 500 that says so).
                    let _ =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| app.handle(req)));
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}

/// Opens `url` in the default browser, where there is one (a desktop session).
fn open_browser(url: &str) -> bool {
    let cmd = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
            return false;
        }
        "xdg-open"
    };
    std::process::Command::new(cmd)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .is_ok()
}
