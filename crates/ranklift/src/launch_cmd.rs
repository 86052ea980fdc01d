//! `ranklift launch -n N PROGRAM ARGS...`: start N workers of a program distributed onto
//! TensorFlow's own collectives (`ranklift_tf`), the way `horovodrun -np N` starts Horovod ranks.
//!
//! Each worker gets `TF_CONFIG` (the cluster's worker list and its own index: what
//! `MultiWorkerMirroredStrategy` reads) and `RANKLIFT_RANK`, `RANKLIFT_SIZE`,
//! `RANKLIFT_LOCAL_RANK`, `RANKLIFT_LOCAL_SIZE`. Without `--workers` the cluster is N workers on
//! 127.0.0.1 with ports the system hands out; with it, the same list on every machine and
//! `--index` the rank of this machine's first worker (one command per host). Every line a
//! worker prints is prefixed `[RANK]<stdout>:` or `[RANK]<stderr>:` (horovodrun's format).
//! SIGINT, SIGTERM and SIGHUP are passed on to the workers. When a worker fails, the others are
//! stopped (SIGTERM, then SIGKILL after `--grace` seconds: a collective would wait for the dead
//! worker forever) and the launcher exits with the first failure's status.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::{Child, ExitCode, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  ranklift launch -n 2 python train_dist.py\n  # two machines, one worker each (the same --workers on both):\n  ranklift launch -n 1 --workers 10.0.0.1:23456,10.0.0.2:23456 --index 0 python train_dist.py\n  ranklift launch -n 1 --workers 10.0.0.1:23456,10.0.0.2:23456 --index 1 python train_dist.py\n  # under SLURM no launcher is needed: srun python train_dist.py\n\nExit status: 0 when every worker succeeded, else the first failure's (128 + N for signal N); 2 for a usage error."
)]
pub struct Args {
    /// Worker processes to start on this machine.
    #[arg(short = 'n', long = "np", value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    n: u16,
    /// Every worker of the cluster as HOST:PORT, in rank order, the same list on every machine
    /// (default: N workers on 127.0.0.1, on free ports).
    #[arg(long, value_name = "HOST:PORT,...", value_delimiter = ',')]
    workers: Vec<String>,
    /// The rank of this machine's first worker in --workers: its N workers are INDEX, INDEX+1, ...
    #[arg(long, value_name = "INDEX", default_value_t = 0)]
    index: usize,
    /// Seconds the other workers get to stop after one failed, before they are killed.
    #[arg(long, value_name = "SECONDS", default_value_t = 10)]
    grace: u64,
    /// The program and its arguments (`python train_dist.py --epochs 3`).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        required = true,
        value_name = "COMMAND"
    )]
    command: Vec<String>,
}

/// The last signal received (0: none), for the main loop to pass on.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    SIGNAL.store(sig, Ordering::SeqCst);
}

fn usage(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// `HOST:PORT` with a port in 1..=65535 (IPv6 hosts in brackets: `[::1]:23456`).
fn valid_worker(w: &str) -> bool {
    w.rsplit_once(':')
        .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok_and(|p| p > 0))
}

/// N free ports on 127.0.0.1: listeners bound to port 0, all held until every port is known (so
/// no two are the same), then released for the workers to bind.
fn local_workers(n: usize) -> std::io::Result<Vec<String>> {
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0"))
        .collect::<Result<_, _>>()?;
    listeners
        .iter()
        .map(|l| l.local_addr().map(|a| format!("127.0.0.1:{}", a.port())))
        .collect()
}

pub fn run(args: Args) -> ExitCode {
    let n = usize::from(args.n);
    let workers = if args.workers.is_empty() {
        if args.index != 0 {
            return usage("--index needs --workers (the whole cluster, the same on every machine)");
        }
        match local_workers(n) {
            Ok(w) => w,
            Err(e) => return usage(&format!("cannot find free ports on 127.0.0.1: {e}")),
        }
    } else {
        if let Some(bad) = args.workers.iter().find(|w| !valid_worker(w)) {
            return usage(&format!(
                "--workers: `{bad}` is not HOST:PORT (a port from 1 to 65535)"
            ));
        }
        if args.index + n > args.workers.len() {
            return usage(&format!(
                "--index {} with -n {n} needs workers {}..{}, but --workers lists {}",
                args.index,
                args.index,
                args.index + n - 1,
                args.workers.len()
            ));
        }
        args.workers.clone()
    };
    let size = workers.len();
    // SAFETY: plain handlers that store into an atomic, installed before any worker exists.
    #[cfg(unix)]
    unsafe {
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::signal(sig, on_signal as *const () as libc::sighandler_t);
        }
    }
    let out = Arc::new(Mutex::new(()));
    let mut children: Vec<(usize, Child)> = Vec::new();
    let mut pumps = Vec::new();
    for local in 0..n {
        let rank = args.index + local;
        let tf_config = serde_json::json!({
            "cluster": { "worker": workers },
            "task": { "type": "worker", "index": rank },
        });
        let spawned = std::process::Command::new(&args.command[0])
            .args(&args.command[1..])
            .env("TF_CONFIG", tf_config.to_string())
            .env("RANKLIFT_RANK", rank.to_string())
            .env("RANKLIFT_SIZE", size.to_string())
            .env("RANKLIFT_LOCAL_RANK", local.to_string())
            .env("RANKLIFT_LOCAL_SIZE", n.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = match spawned {
            Ok(c) => c,
            Err(e) => {
                stop(&mut children, libc::SIGKILL);
                return usage(&format!("cannot start `{}`: {e}", args.command[0]));
            }
        };
        if let Some(o) = child.stdout.take() {
            pumps.push(pump(o, rank, false, Arc::clone(&out)));
        }
        if let Some(e) = child.stderr.take() {
            pumps.push(pump(e, rank, true, Arc::clone(&out)));
        }
        children.push((rank, child));
    }
    let code = supervise(&mut children, Duration::from_secs(args.grace));
    for p in pumps {
        let _ = p.join();
    }
    ExitCode::from(code)
}

/// Wait for every worker; on the first failure stop the others. The exit status to return.
fn supervise(children: &mut [(usize, Child)], grace: Duration) -> u8 {
    let mut running: Vec<bool> = vec![true; children.len()];
    let mut failure: Option<u8> = None;
    let mut kill_at: Option<Instant> = None;
    while running.iter().any(|&r| r) {
        let mut pass_on = SIGNAL.swap(0, Ordering::SeqCst);
        if pass_on != 0 {
            failure.get_or_insert(128u8.saturating_add(pass_on as u8));
            kill_at.get_or_insert(Instant::now() + grace);
        }
        for (i, (rank, c)) in children.iter_mut().enumerate() {
            if !running[i] {
                continue;
            }
            if let Ok(Some(status)) = c.try_wait() {
                running[i] = false;
                let code = status_code(status);
                if code != 0 && failure.is_none() {
                    failure = Some(code);
                    eprintln!(
                        "ranklift launch: worker {rank} failed ({}); stopping the others",
                        describe(status)
                    );
                    kill_at = Some(Instant::now() + grace);
                    pass_on = libc::SIGTERM;
                }
            }
        }
        if kill_at.is_some_and(|t| Instant::now() >= t) {
            pass_on = libc::SIGKILL;
        }
        if pass_on != 0 {
            for (i, (_, c)) in children.iter().enumerate() {
                if running[i] {
                    signal(c, pass_on);
                }
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    failure.unwrap_or(0)
}

fn signal(c: &Child, sig: libc::c_int) {
    if let Ok(pid) = libc::pid_t::try_from(c.id()) {
        // SAFETY: kill(2) on a child this process started and has not reaped yet.
        unsafe {
            libc::kill(pid, sig);
        }
    }
}

/// Kill and reap workers already started (when a later one cannot be).
fn stop(children: &mut [(usize, Child)], sig: libc::c_int) {
    for (_, c) in children.iter_mut() {
        signal(c, sig);
        let _ = c.wait();
    }
}

fn status_code(s: std::process::ExitStatus) -> u8 {
    use std::os::unix::process::ExitStatusExt;
    match (s.code(), s.signal()) {
        (Some(c), _) => u8::try_from(c & 0xff).unwrap_or(1),
        (None, Some(sig)) => 128u8.saturating_add(sig as u8),
        (None, None) => 1,
    }
}

fn describe(s: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (s.code(), s.signal()) {
        (Some(c), _) => format!("exit status {c}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        (None, None) => "unknown status".into(),
    }
}

/// Copy a worker's stream line by line to ours, each line prefixed with its rank and stream
/// (bytes as they are: a worker's output need not be UTF-8). A partial last line is ended.
fn pump(
    stream: impl Read + Send + 'static,
    rank: usize,
    is_err: bool,
    lock: Arc<Mutex<()>>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let prefix = format!("[{rank}]<{}>:", if is_err { "stderr" } else { "stdout" });
        let mut r = BufReader::new(stream);
        let mut line = Vec::new();
        loop {
            line.clear();
            match r.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if !line.ends_with(b"\n") {
                line.push(b'\n');
            }
            let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
            let res = if is_err {
                let mut e = std::io::stderr().lock();
                e.write_all(prefix.as_bytes())
                    .and_then(|()| e.write_all(&line))
            } else {
                let mut o = std::io::stdout().lock();
                o.write_all(prefix.as_bytes())
                    .and_then(|()| o.write_all(&line))
                    .and_then(|()| o.flush())
            };
            if res.is_err() {
                // Our reader went away: keep draining so the worker never blocks on a full pipe.
                continue;
            }
        }
    })
}
