"""gunicorn settings for `./run serve` (and the container, which runs the same command)."""

import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Scoring one hand takes microseconds to milliseconds; anything near this is a stuck worker.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 10
keepalive = 5
# Load the rule sets once in the master: a broken rule set stops the service at start-up
# (RuleSetError) instead of workers failing one by one, and workers share the loaded data.
preload_app = True
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
# Heartbeat files on tmpfs where there is one (containers often have a slow overlay /tmp).
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"
