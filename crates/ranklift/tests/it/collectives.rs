//! TensorFlow ≥ 2.16 on the command line: `distribute` for TensorFlow ≥ 2.16 (the engine chosen from
//! `--target-tf`, the installed TensorFlow, or the program's Keras 3 APIs; `ranklift_tf.py`
//! written next to the program, all-or-nothing) and `ranklift launch` (real processes: the
//! cluster each worker is given, output prefixes, the first failure's status, signals passed
//! on). Whether the written programs train correctly on TensorFlow's collectives is
//! `scripts/e2e-tf.sh`'s job (real TensorFlow 2.21).

use crate::common;

use std::process::Command;

use common::{distribute_examples as examples, output as run};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ranklift"));
    // No TensorFlow is installed for this Python: what ranklift assumes without one is tested.
    c.env("RANKLIFT_PYTHON", "/nonexistent/python3");
    c
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    common::scratch("coll", name)
}

const RUNTIME: &str = include_str!("../../../../python/ranklift_tf.py");

#[test]
fn target_2_16_writes_the_program_and_its_module_and_prints_the_launcher() {
    let d = tmpdir("write");
    let out = d.join("out").join("train.py");
    let (code, _, err) = run(bin()
        .args(["distribute", "--target-tf", "2.21"])
        .arg(examples().join("tape_mlp.py"))
        .arg("-o")
        .arg(&out));
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("import ranklift_tf as hvd\nhvd.init()\n"),
        "{text}"
    );
    assert!(!text.contains("horovod"), "{text}");
    assert!(!text.contains("set_visible_devices"), "{text}");
    assert!(text.contains("hvd.DistributedGradientTape(tape)"));
    assert_eq!(
        std::fs::read_to_string(d.join("out").join("ranklift_tf.py")).unwrap(),
        RUNTIME
    );
    assert!(err.contains("rewrote 2 file(s)"), "{err}");
    assert!(
        err.contains(&format!(
            "launch: ranklift launch -n 2 python {}",
            out.display()
        )),
        "{err}"
    );
    assert!(err.contains("`--index 1` on the second"), "{err}");
    assert!(
        err.contains("srun --nodes 2 --ntasks-per-node 1 python"),
        "{err}"
    );
    // Control: the same program without a target, and no TensorFlow to ask, is Horovod's — and
    // the assumption is said.
    let out2 = d.join("hvd").join("train.py");
    let (code, _, err) = run(bin()
        .args(["distribute"])
        .arg(examples().join("tape_mlp.py"))
        .arg("-o")
        .arg(&out2));
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::read_to_string(&out2)
            .unwrap()
            .contains("import horovod.tensorflow as hvd")
    );
    assert!(!d.join("hvd").join("ranklift_tf.py").exists());
    assert!(
        err.contains("no TensorFlow is installed for python3 here"),
        "{err}"
    );
}

/// The installed TensorFlow decides when no target is given: a stand-in `python3` that answers
/// the version probe as a TensorFlow 2.21 installation would (the probe reads package metadata).
#[test]
fn the_installed_tensorflow_chooses_the_engine() {
    let d = tmpdir("detect");
    let fake = d.join("python3");
    std::fs::write(&fake, "#!/bin/sh\necho 2.21.0\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let (code, out, err) = run(bin()
        .env("RANKLIFT_PYTHON", &fake)
        .args(["distribute", "--format", "json", "-o"])
        .arg(d.join("o.py"))
        .arg(examples().join("keras_fit_basic.py")));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["launch"]["argv"][0], "ranklift", "{out}");
    let files: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["keras_fit_basic.py", "ranklift_tf.py"], "{out}");
    assert_eq!(v["files"][1]["created"], true);
    // Control: a Python that reports TensorFlow 2.15 gets Horovod.
    std::fs::write(&fake, "#!/bin/sh\necho 2.15.1\n").unwrap();
    let (code, out, _) = run(bin()
        .env("RANKLIFT_PYTHON", &fake)
        .args(["distribute", "--format", "json", "--diff"])
        .arg(examples().join("keras_fit_basic.py")));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["launch"]["argv"][0], "horovodrun", "{out}");
}

#[test]
fn keras_3_apis_choose_the_collectives_unless_the_target_says_otherwise() {
    let d = tmpdir("keras3");
    let prog = d.join("train.py");
    std::fs::write(
        &prog,
        "import numpy as np\nimport keras\nimport tensorflow as tf\n\nmodel = keras.Sequential([keras.layers.Dense(1)])\nopt = keras.optimizers.SGD(0.1)\nx = np.ones((64, 3), 'float32')\nds = tf.data.Dataset.from_tensor_slices((x, x[:, :1])).batch(8)\nfor xb, yb in ds:\n    with tf.GradientTape() as tape:\n        loss = keras.ops.mean((model(xb) - yb) ** 2)\n    grads = tape.gradient(loss, model.trainable_variables)\n    opt.apply_gradients(zip(grads, model.trainable_variables))\n",
    )
    .unwrap();
    let (code, out, err) = run(bin().args(["distribute", "--diff"]).arg(&prog));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("+import ranklift_tf as hvd"), "{out}");
    assert!(
        out.contains("--- /dev/null\n+++ b/ranklift_tf.py\n"),
        "{out}"
    );
    assert!(err.contains("DST215"), "{err}");
    assert!(
        err.contains("is a Keras 3 API: distributed onto TensorFlow's own collectives"),
        "{err}"
    );
    // Control: an explicit Keras 2 target is an error, with the way out.
    let (code, _, err) = run(bin()
        .args(["distribute", "--diff", "--target-tf", "2.13"])
        .arg(&prog));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("DST210 `keras.ops.mean` is a Keras 3 API, but --target-tf 2.13"),
        "{err}"
    );
    assert!(err.contains("--target-tf 2.16"), "{err}");
}

#[test]
fn tf1_programs_are_refused_on_the_collectives() {
    let (code, out, err) = run(bin()
        .args(["distribute", "--check", "--target-tf", "2.16"])
        .arg(examples().join("tf1_session_placeholders.py")));
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("DST213"), "{out}");
    // Control: the same program for TensorFlow 2.15 is distributed (Horovod).
    let (code, out, _) = run(bin()
        .args(["distribute", "--check", "--target-tf", "2.15"])
        .arg(examples().join("tf1_session_placeholders.py")));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("would rewrite"), "{out}");
}

#[test]
fn in_place_writes_the_module_too_and_check_sees_it() {
    let d = tmpdir("inplace");
    std::fs::copy(examples().join("tape_mlp.py"), d.join("train.py")).unwrap();
    let (code, out, _) = run(bin()
        .args(["distribute", "--check", "--target-tf", "2.21"])
        .arg(d.join("train.py")));
    assert_eq!(code, 1);
    assert!(out.contains("ranklift_tf.py"), "{out}");
    let (code, _, err) = run(bin()
        .args(["distribute", "--in-place", "--target-tf", "2.21"])
        .arg(d.join("train.py")));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(d.join("ranklift_tf.py")).unwrap(),
        RUNTIME
    );
    // The project's own module of that name is never overwritten (DST214), nothing is written.
    let p = tmpdir("taken");
    std::fs::copy(examples().join("tape_mlp.py"), p.join("train.py")).unwrap();
    std::fs::write(p.join("ranklift_tf.py"), "X = 1\n").unwrap();
    let (code, out, err) = run(bin()
        .args(["distribute", "--in-place", "--target-tf", "2.21"])
        .arg(&p));
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("DST214") || out.contains("DST214"),
        "{out}{err}"
    );
    assert_eq!(
        std::fs::read_to_string(p.join("ranklift_tf.py")).unwrap(),
        "X = 1\n"
    );
    assert!(
        !std::fs::read_to_string(p.join("train.py"))
            .unwrap()
            .contains("hvd")
    );
}

fn python() -> &'static str {
    "python3"
}

#[test]
fn launch_gives_each_worker_the_cluster_and_prefixes_its_output() {
    let script = "import json, os\nc = json.loads(os.environ['TF_CONFIG'])\nprint(len(c['cluster']['worker']), c['task']['index'], os.environ['RANKLIFT_RANK'], os.environ['RANKLIFT_LOCAL_RANK'], os.environ['RANKLIFT_SIZE'])\nimport sys; print('to stderr', file=sys.stderr)\n";
    let (code, out, err) = run(bin().args(["launch", "-n", "3", python(), "-c", script]));
    assert_eq!(code, 0, "{err}");
    for r in 0..3 {
        assert!(
            out.contains(&format!("[{r}]<stdout>:3 {r} {r} {r} 3\n")),
            "{out}"
        );
        assert!(err.contains(&format!("[{r}]<stderr>:to stderr\n")), "{err}");
    }
    // Ports are distinct.
    let ports = "import json, os; print(json.loads(os.environ['TF_CONFIG'])['cluster']['worker'])";
    let (_, out, _) = run(bin().args(["launch", "-n", "2", python(), "-c", ports]));
    let line = out.lines().next().unwrap();
    let list: Vec<&str> = line
        .split(['[', ']', ',', '\'', ' '])
        .filter(|s| s.contains(':') && !s.starts_with('<'))
        .collect();
    assert_eq!(list.len(), 2, "{out}");
    assert_ne!(list[0], list[1]);
    // Multi-host form: the given cluster, this machine's ranks from --index.
    let (code, out, err) = run(bin().args([
        "launch",
        "-n",
        "1",
        "--workers",
        "h1:2222,h2:2222",
        "--index",
        "1",
        python(),
        "-c",
        script,
    ]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "[1]<stdout>:2 1 1 0 2\n");
}

#[test]
fn launch_exits_with_the_first_failure_and_stops_the_others() {
    let started = std::time::Instant::now();
    // Rank 1 fails at once; rank 0 would sleep a minute: it is stopped.
    let script = "import os, sys, time\nif os.environ['RANKLIFT_RANK'] == '1':\n    sys.exit(3)\ntime.sleep(60)\n";
    let (code, _, err) = run(bin().args(["launch", "-n", "2", python(), "-c", script]));
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("worker 1 failed (exit status 3); stopping the others"),
        "{err}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    // Control: all succeed, 0.
    let (code, _, _) = run(bin().args(["launch", "-n", "2", python(), "-c", "pass"]));
    assert_eq!(code, 0);
}

#[cfg(unix)]
#[test]
fn launch_passes_signals_on() {
    let d = tmpdir("signal");
    let marker = d.join("got");
    let script = format!(
        "import os, signal, sys, time\ndef h(s, f):\n    open({:?} + os.environ['RANKLIFT_RANK'], 'w').write(str(s))\n    sys.exit(0)\nsignal.signal(signal.SIGTERM, h)\nprint('ready', flush=True)\ntime.sleep(60)\n",
        marker.display().to_string()
    );
    let mut child = bin()
        .args(["launch", "-n", "2", python(), "-c", &script])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until both workers installed their handler.
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut ready = 0;
    let mut line = String::new();
    while ready < 2 {
        line.clear();
        assert!(std::io::BufRead::read_line(&mut out, &mut line).unwrap() > 0);
        ready += usize::from(line.contains("ready"));
    }
    // SAFETY: kill(2) on our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 15));
    for r in 0..2 {
        let got = std::fs::read_to_string(format!("{}{r}", marker.display())).unwrap();
        assert_eq!(got, "15");
    }
}

#[test]
fn launch_usage_errors() {
    for (args, want) in [
        (vec!["launch", "-n", "0", "python3"], "0 is not in 1..=1024"),
        (
            vec!["launch", "-n", "2", "--workers", "a:1", "python3"],
            "needs workers 0..1, but --workers lists 1",
        ),
        (
            vec!["launch", "-n", "1", "--workers", "nohost", "python3"],
            "`nohost` is not HOST:PORT",
        ),
        (
            vec!["launch", "-n", "1", "--index", "1", "python3"],
            "--index needs --workers",
        ),
        (
            vec!["launch", "-n", "1", "/nonexistent/prog"],
            "cannot start `/nonexistent/prog`",
        ),
        // Numbers past their range are usage errors, not overflows (a grace period of 2^64-1
        // seconds panicked when a worker failed; --index 2^64-1 wrapped around the check).
        (
            vec![
                "launch",
                "-n",
                "1",
                "--grace",
                "18446744073709551615",
                "python3",
            ],
            "not in 0..=86400",
        ),
        (
            vec![
                "launch",
                "-n",
                "2",
                "--workers",
                "a:1,b:2",
                "--index",
                "18446744073709551615",
                "python3",
            ],
            "--index",
        ),
    ] {
        let (code, _, err) = run(bin().args(&args));
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// A worker that listens on its `TF_CONFIG` port on every interface (as TensorFlow's gRPC server
/// does), writes the port where the test can read it, checks it reaches its peer, and waits.
const LISTENER: &str = "import json, os, socket, sys, time\nc = json.loads(os.environ['TF_CONFIG'])\nme = c['task']['index']\nport = int(c['cluster']['worker'][me].rsplit(':', 1)[1])\ns = socket.socket(socket.AF_INET6)\ns.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)\ns.bind(('::', port))\ns.listen()\ntime.sleep(0.3)\npeer = int(c['cluster']['worker'][1 - me].rsplit(':', 1)[1])\nsocket.create_connection(('127.0.0.1', peer), timeout=5).close()\nopen(sys.argv[1] + str(me), 'w').write(str(port))\ntime.sleep(6)\n";

/// Whether a process outside the launch reaches worker 0's port while it listens.
fn reachable_from_outside(extra: &[&str]) -> bool {
    let d = tmpdir(&format!("reach{}", extra.len()));
    let file = d.join("port");
    let mut child = bin()
        .args(["launch", "-n", "2"])
        .args(extra)
        .args([python(), "-c", LISTENER])
        .arg(&file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let ready = format!("{}0", file.display());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !std::path::Path::new(&ready).exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the workers never got ready"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let port: u16 = std::fs::read_to_string(&ready).unwrap().parse().unwrap();
    let reached = std::net::TcpStream::connect_timeout(
        &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        std::time::Duration::from_secs(2),
    )
    .is_ok();
    let status = child.wait().unwrap();
    assert!(
        status.success(),
        "the workers reach each other in both forms"
    );
    reached
}

#[test]
fn local_workers_are_reachable_by_each_other_only() {
    assert!(
        !reachable_from_outside(&[]),
        "a process outside the launch connected to a worker's port"
    );
    // Negative control: in the shared network the same port is open to this test.
    assert!(reachable_from_outside(&["--shared-network"]));
}

#[cfg(unix)]
#[test]
fn the_worker_tree_ends_with_the_launcher() {
    let d = tmpdir("tree");
    let pids = d.join("pids");
    // Each worker starts a helper that inherits its output, writes both pids, and sleeps.
    let script = format!(
        "import os, subprocess, sys, time\nh = subprocess.Popen(['sleep', '60'])\nopen({:?} + os.environ['RANKLIFT_RANK'], 'w').write(f'{{os.getpid()}} {{h.pid}}')\nif os.environ['RANKLIFT_RANK'] == '1':\n    while not os.path.exists({:?} + '0'):\n        time.sleep(0.05)\n    sys.exit(3)\ntime.sleep(60)\n",
        pids.display().to_string(),
        pids.display().to_string()
    );
    // A worker fails while its helper holds its stdout: the launcher returns its status at once
    // (it used to wait for the helper's end of the pipe) and no helper outlives it.
    let started = std::time::Instant::now();
    let (code, _, err) =
        run(bin().args(["launch", "-n", "2", "--grace", "1", python(), "-c", &script]));
    assert_eq!(code, 3, "{err}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    // Running, not a zombie waiting for a parent that does not reap it.
    let alive = |pid: i32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            s.rsplit_once(") ")
                .is_some_and(|(_, rest)| !rest.starts_with('Z'))
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(300));
    for r in 0..2 {
        let text = std::fs::read_to_string(format!("{}{r}", pids.display())).unwrap();
        for pid in text.split(' ') {
            assert!(
                !alive(pid.parse().unwrap()),
                "rank {r}: {pid} outlived the launcher"
            );
        }
    }
    // SIGKILL of the launcher itself: the workers die with it.
    let script = format!(
        "import os, time\nopen({:?} + os.environ['RANKLIFT_RANK'], 'w').write(str(os.getpid()))\ntime.sleep(60)\n",
        d.join("k").display().to_string()
    );
    let mut child = bin()
        .args(["launch", "-n", "2", python(), "-c", &script])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let files: Vec<_> = (0..2)
        .map(|r| format!("{}{r}", d.join("k").display()))
        .collect();
    while !files.iter().all(|f| std::path::Path::new(f).exists()) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    child.kill().unwrap();
    child.wait().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    for f in &files {
        let pid: i32 = std::fs::read_to_string(f).unwrap().parse().unwrap();
        assert!(!alive(pid), "worker {pid} outlived a killed launcher");
    }
}

#[test]
fn progress_redraws_are_prefixed_as_they_come_and_long_lines_are_cut() {
    // A progress bar redrawn with \r, then 200 kB without a newline.
    let script = "import sys\nfor i in range(3):\n    sys.stdout.write(f'step {i}\\r')\nsys.stdout.write('x' * 200000)\n";
    let (code, out, err) = run(bin().args(["launch", "-n", "1", python(), "-c", script]));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("[0]<stdout>:step 0\r[0]<stdout>:step 1\r[0]<stdout>:step 2\r"),
        "{:?}",
        &out[..80.min(out.len())]
    );
    let pieces: Vec<&str> = out.split(['\n', '\r']).filter(|l| !l.is_empty()).collect();
    assert!(pieces.len() >= 4, "the long line arrives in bounded pieces");
    for p in &pieces {
        assert!(p.len() <= 64 * 1024 + 64, "a piece of {} bytes", p.len());
    }
    assert_eq!(out.matches('x').count(), 200_000, "nothing is lost");
}
