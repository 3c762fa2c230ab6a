# The container runs exactly the README's serve command (`./run serve`), so the path the tests
# exercise is the path that ships.

# Build stage: dependencies into .venv and the engine compiled with mypyc (setup.py), which
# needs a C compiler; the image that runs carries the result, not the compiler.
FROM python:3.11-slim AS build

ENV PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin mahjong
WORKDIR /srv/mahjong
COPY --chown=mahjong:mahjong . .
USER mahjong
# The generated C and object files are not needed to run.
RUN ./run install && rm -rf build

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PORT=8000

RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin mahjong
WORKDIR /srv/mahjong
# The same path as in the build stage: .venv and the editable install point into it.
COPY --from=build --chown=mahjong:mahjong /srv/mahjong /srv/mahjong
USER mahjong

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import os, sys, urllib.request; r = urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4); sys.exit(0 if r.status == 200 else 1)"]
CMD ["./run", "serve"]
