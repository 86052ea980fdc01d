"""Unit tests of the recorder every `ranklift distribute --verify` process imports
(python/ranklift/verify_record.py), run in real processes as the ranks of a run are: stdlib
unittest, run by `cargo test` (crates/ranklift/tests/it/choreo.rs) or
`python3 -m unittest discover -s python/tests`."""

import os
import subprocess
import sys
import tempfile
import unittest

RECORDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ranklift")


class RedirectedFiles(unittest.TestCase):
    """A file outside the project that one rank writes is redirected below the run's redirect
    directory; another rank of the same run that reads that path must read the redirected file
    (rank 0 saves a checkpoint to /tmp, every rank loads it after a barrier), not the user's
    real file — and the real file is never touched."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rl-verify-record-")
        for d in ("proj", "rec", "tmp", "user", "outside", "other-run"):
            os.makedirs(os.path.join(self.dir, d))
        self.user_file = os.path.join(self.dir, "user", "checkpoint.txt")
        with open(self.user_file, "w") as f:
            f.write("the user's own file")

    def tearDown(self):
        import shutil

        shutil.rmtree(self.dir, ignore_errors=True)

    def rank(self, n, code, redirect="outside"):
        env = dict(
            os.environ,
            PYTHONPATH=RECORDER,
            RANKLIFT_VERIFY_OUT=os.path.join(self.dir, "rec"),
            RANKLIFT_VERIFY_ROLE="worker",
            RANK=str(n),
            RANKLIFT_VERIFY_ROOT=os.path.join(self.dir, "proj"),
            RANKLIFT_VERIFY_REDIRECT=os.path.join(self.dir, redirect),
            TMPDIR=os.path.join(self.dir, "tmp"),
        )
        env.pop("RANKLIFT_VERIFY_RECORDER", None)
        p = subprocess.run([sys.executable, "-c", "import verify_record\n" + code],
                           cwd=os.path.join(self.dir, "proj"), env=env, capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_a_file_rank_0_wrote_outside_is_what_rank_1_reads(self):
        path = repr(self.user_file)
        self.rank(0, f"open({path}, 'w').write('saved by rank 0')")
        self.assertEqual(self.rank(1, f"print(open({path}).read())").strip(), "saved by rank 0")
        with open(self.user_file) as f:
            self.assertEqual(f.read(), "the user's own file")

    def test_a_path_no_process_of_the_run_wrote_reads_the_real_file(self):
        # The negative control: another run's redirect directory holds nothing of this run, so
        # the same read sees the user's file.
        path = repr(self.user_file)
        self.rank(0, f"open({path}, 'w').write('saved by rank 0')")
        out = self.rank(1, f"print(open({path}).read())", redirect="other-run")
        self.assertEqual(out.strip(), "the user's own file")


if __name__ == "__main__":
    unittest.main()
