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
//!
//! Reach: TensorFlow's gRPC server listens on every interface whatever `TF_CONFIG` says, and
//! takes eager work from whoever connects, so a worker's port would let any process that reaches
//! the machine run code as the user. A local launch therefore runs its workers in a network
//! namespace of their own (`isolate`: a user namespace where unprivileged, with only a loopback
//! interface): they reach each other and nothing else reaches them. Where the kernel refuses,
//! `launch` does not start unless `--shared-network` says the risk is accepted. A multi-machine
//! launch (`--workers`) cannot be isolated and says so.
//!
//! The worker tree ends with the launcher: each worker is the leader of its own process group
//! (signals go to the whole group, so helpers a worker started end too) and gets SIGKILL when the
//! launcher dies (`PR_SET_PDEATHSIG`). Output is forwarded as it comes — a line, a `\r`
//! progress redraw, or at most [`MAX_LINE`] bytes — and a pipe still held open by a leftover
//! helper never keeps the launcher waiting.

use std::io::{Read, Write};
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
    #[arg(long, value_name = "INDEX", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=65_535))]
    index: u32,
    /// Seconds the other workers get to stop after one failed, before they are killed.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=86_400))]
    grace: u64,
    /// Run local workers in this machine's network, not a namespace of their own: needed when
    /// they download data, and then any process that reaches this machine can reach their
    /// ports (TensorFlow's servers listen on every interface and run what they are sent).
    #[arg(long)]
    shared_network: bool,
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
    eprintln!("error: {}", crate::report::escape_text(msg));
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

/// A largest chunk forwarded without a line end (a worker that prints without newlines cannot
/// make the launcher hold more than this per stream).
pub const MAX_LINE: usize = 64 << 10;

/// Move this process (still single-threaded) into a network namespace of its own with only a
/// loopback interface, up: workers started afterwards reach each other on 127.0.0.1 and nothing
/// outside reaches them. Unprivileged users get a user namespace that maps them to themselves.
fn isolate() -> Result<(), String> {
    let err = |what: &str| format!("{what}: {}", std::io::Error::last_os_error());
    // SAFETY: plain system calls on this process; no thread exists yet (unshare of a user
    // namespace requires that), and the buffers outlive the calls.
    unsafe {
        let (uid, gid) = (libc::geteuid(), libc::getegid());
        let flags = if uid == 0 {
            libc::CLONE_NEWNET
        } else {
            libc::CLONE_NEWUSER | libc::CLONE_NEWNET
        };
        if libc::unshare(flags) != 0 {
            return Err(err("unshare"));
        }
        if uid != 0 {
            for (file, text) in [
                ("/proc/self/setgroups", "deny".to_owned()),
                ("/proc/self/uid_map", format!("{uid} {uid} 1")),
                ("/proc/self/gid_map", format!("{gid} {gid} 1")),
            ] {
                std::fs::write(file, text).map_err(|e| format!("{file}: {e}"))?;
            }
        }
        let fd = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        if fd < 0 {
            return Err(err("socket"));
        }
        let mut ifr: libc::ifreq = std::mem::zeroed();
        for (d, s) in ifr.ifr_name.iter_mut().zip(b"lo\0") {
            *d = *s as libc::c_char;
        }
        let ok = libc::ioctl(fd, libc::SIOCGIFFLAGS, &mut ifr) == 0 && {
            ifr.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
            libc::ioctl(fd, libc::SIOCSIFFLAGS, &ifr) == 0
        };
        let e = err("bringing up the loopback interface");
        libc::close(fd);
        if !ok {
            return Err(e);
        }
    }
    Ok(())
}

pub fn run(args: Args) -> ExitCode {
    let n = usize::from(args.n);
    let index = args.index as usize;
    let workers = if args.workers.is_empty() {
        if index != 0 {
            return usage("--index needs --workers (the whole cluster, the same on every machine)");
        }
        if args.shared_network {
            eprintln!(
                "ranklift launch: warning: --shared-network: the workers' ports are open to every process that reaches this machine, and TensorFlow's servers run what they are sent"
            );
        } else if let Err(e) = isolate() {
            return usage(&format!(
                "cannot give the workers a network of their own ({e}); without one, any process that reaches this machine can run code through their ports. Pass --shared-network to start them anyway on a machine only you can reach"
            ));
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
        if index + n > args.workers.len() {
            return usage(&format!(
                "--index {index} with -n {n} needs workers {index}..{}, but --workers lists {}",
                index + n - 1,
                args.workers.len()
            ));
        }
        eprintln!(
            "ranklift launch: the workers listen on every interface of this machine (TensorFlow's servers do): run this only on a network where every host is trusted"
        );
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
        let rank = index + local;
        let tf_config = serde_json::json!({
            "cluster": { "worker": workers },
            "task": { "type": "worker", "index": rank },
        });
        let parent = std::process::id();
        let mut cmd = std::process::Command::new(&args.command[0]);
        use std::os::unix::process::CommandExt;
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                // The worker dies with the launcher, even by SIGKILL; if the launcher is already
                // gone, it never starts.
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0
                    || libc::getppid() as u32 != parent
                {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
        let spawned = cmd
            .process_group(0)
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
    // Helpers a worker left behind in its group end with it; then the output still in flight is
    // forwarded, but a pipe some other leftover holds open does not keep us waiting.
    for (_, c) in &children {
        signal(c, libc::SIGKILL);
    }
    let deadline = Instant::now() + Duration::from_secs(2);
    while pumps.iter().any(|p| !p.is_finished()) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    for p in pumps.into_iter().filter(|p| p.is_finished()) {
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

/// Signal a worker's whole process group (it leads one: `process_group(0)`).
fn signal(c: &Child, sig: libc::c_int) {
    if let Ok(pid) = libc::pid_t::try_from(c.id()) {
        // SAFETY: kill(2) on the process group of a child this process started.
        unsafe {
            libc::kill(-pid, sig);
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

/// Copy a worker's stream to ours as it comes, each piece prefixed with its rank and stream:
/// a line, a `\r`-ended progress redraw, or [`MAX_LINE`] bytes of a longer one (bytes as they
/// are: a worker's output need not be UTF-8). A piece without an end is ended with a newline.
fn pump(
    mut stream: impl Read + Send + 'static,
    rank: usize,
    is_err: bool,
    lock: Arc<Mutex<()>>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let prefix = format!("[{rank}]<{}>:", if is_err { "stderr" } else { "stdout" });
        let mut pending: Vec<u8> = Vec::with_capacity(8 << 10);
        let mut chunk = vec![0u8; 8 << 10];
        let emit = |piece: &[u8]| {
            let _guard = lock.lock().unwrap_or_else(|e| e.into_inner());
            let end: &[u8] = if piece.ends_with(b"\n") || piece.ends_with(b"\r") {
                b""
            } else {
                b"\n"
            };
            // A reader that went away: keep draining so the worker never blocks on a full pipe.
            let _ = if is_err {
                let mut e = std::io::stderr().lock();
                e.write_all(prefix.as_bytes())
                    .and_then(|()| e.write_all(piece))
                    .and_then(|()| e.write_all(end))
            } else {
                let mut o = std::io::stdout().lock();
                o.write_all(prefix.as_bytes())
                    .and_then(|()| o.write_all(piece))
                    .and_then(|()| o.write_all(end))
                    .and_then(|()| o.flush())
            };
        };
        loop {
            let got = match stream.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(k) => k,
            };
            pending.extend_from_slice(&chunk[..got]);
            let mut start = 0;
            while let Some(i) = memchr::memchr2(b'\n', b'\r', &pending[start..]) {
                emit(&pending[start..start + i + 1]);
                start += i + 1;
            }
            while pending.len() - start >= MAX_LINE {
                emit(&pending[start..start + MAX_LINE]);
                start += MAX_LINE;
            }
            pending.drain(..start);
        }
        if !pending.is_empty() {
            emit(&pending);
        }
    })
}
