# The container runs exactly the README's serve command (`./run serve`), so the path the tests
# exercise is the path that ships. Build and check it: tests/test_container.py (run by the
# suite wherever docker or podman is at hand).

# Build stage: dependencies into .venv from the lock, then the project built and its engine
# compiled with mypyc (setup.py), which needs a C compiler; the image that runs carries the
# result, not the compiler.
FROM python:3.11-slim AS build

ENV PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /srv/mahjong
# The dependencies in their own layer: a change to the code does not install them again.
COPY requirements/ requirements/
RUN python -m venv .venv \
    && .venv/bin/python -m pip install --quiet --require-hashes --no-deps \
       -r requirements/runtime.lock
# What the service is made of, and nothing else (no tests, benchmarks or docs).
COPY pyproject.toml setup.py run gunicorn.conf.py openapi.yaml ./
COPY app/ app/
COPY mahjong_scoring/ mahjong_scoring/
COPY rulesets/ rulesets/
# The generated C and object files are not needed to run.
RUN ./run install && rm -rf build

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PORT=8000

WORKDIR /srv/mahjong
# The same path as in the build stage (.venv and the editable install point into it). The
# files stay root's: the user that runs the service can read them, not change them.
COPY --from=build /srv/mahjong /srv/mahjong
# A numeric uid and gid without an entry in /etc/passwd: orchestrators can check that it is
# not root (runAsNonRoot) without looking inside the image.
USER 10001:10001

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import os, sys, urllib.request; r = urllib.request.urlopen('http://127.0.0.1:%s/readyz' % os.environ.get('PORT', '8000'), timeout=4); sys.exit(0 if r.status == 200 else 1)"]
CMD ["./run", "serve"]
