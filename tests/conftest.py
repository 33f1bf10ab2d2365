import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_configure(config):
    import os

    from hypothesis import settings

    # CI draws the same examples on every run, so that a red build names a
    # change, not a draw; elsewhere each run draws new ones.
    settings.register_profile("ci", derandomize=True, print_blob=True)
    if os.environ.get("CI"):
        settings.load_profile("ci")
    config.addinivalue_line("markers", "live: runs small programs on 127.0.0.1 and measures the stall")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # An xdist worker runs a thread of its own (execnet's) beside the tests, so each fork a
        # test makes in this process (the command line's workers, the server's early build, a
        # process pool) is from a multi-threaded process, which Python 3.12+ warns of.  Only
        # these forks: the server's own are tested in its process (test_server.py).
        config.addinivalue_line(
            "filterwarnings", r"ignore:This process \(pid=\d+\) is multi-threaded, use of fork\(\):DeprecationWarning")
