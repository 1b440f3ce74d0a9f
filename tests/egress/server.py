#!/usr/bin/env python3
"""server.py - the test servers of tests/suite-egress.sh: plain HTTP and
HTTPS on one address, every request logged (method, path, Host header) so a
test can prove a forbidden server never saw a request.

  server.py ADDR HTTP_PORT HTTPS_PORT CERT KEY ROOT LOG NAME

Paths: /hello (one line naming the server), /sse (five server-sent events;
with ?hold=1 the first, then the rest after a GET /release), /big?mb=N
(N MiB, a repeating pattern), POST /echo (the body back, unchanged), POST
/v1/chat/completions (a stand-in model: an OpenAI-compatible streamed answer,
server-sent events, one word per event), GET /v1/models (its one model),
anything else a file below ROOT (DIR/index.json for a directory: the npm
registry's documents)."""
import http.server
import json
import os
import socketserver
import ssl
import sys
import threading
import time
import urllib.parse

addr, http_port, https_port, cert, key, root, log, name = sys.argv[1:9]
log_lock = threading.Lock()
released = threading.Event()   # /sse?hold=1 waits for GET /release


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def record(self):
        with log_lock, open(log, "a") as f:
            f.write("%s %s %s host=%s\n" % (name, self.command, self.path, self.headers.get("Host")))

    def send_body(self, code, body, ctype="text/plain"):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        self.record()
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        if urllib.parse.urlsplit(self.path).path == "/v1/chat/completions":
            self.chat(body)
        else:
            self.send_body(200, body, "application/octet-stream")

    def chat(self, body):
        """The stand-in model: the answer names this server, streamed a word
        per event in OpenAI's chat-completions chunk format."""
        try:
            req = json.loads(body)
        except ValueError:
            self.send_body(400, b"not JSON\n")
            return
        model = req.get("model", "standin")
        words = ("The stand-in model on %s answers: sandboxed egress works." % name).split(" ")
        if not req.get("stream"):
            msg = {"role": "assistant", "content": " ".join(words)}
            doc = {"id": "chatcmpl-standin", "object": "chat.completion", "created": int(time.time()),
                   "model": model, "choices": [{"index": 0, "message": msg, "finish_reason": "stop"}],
                   "usage": {"prompt_tokens": 10, "completion_tokens": len(words), "total_tokens": 10 + len(words)}}
            self.send_body(200, json.dumps(doc).encode(), "application/json")
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()

        def event(delta, finish=None, usage=None):
            doc = {"id": "chatcmpl-standin", "object": "chat.completion.chunk", "created": int(time.time()),
                   "model": model, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            if usage:
                doc["usage"] = usage
            self.wfile.write(("data: %s\n\n" % json.dumps(doc)).encode())
            self.wfile.flush()

        event({"role": "assistant", "content": ""})
        for i, w in enumerate(words):
            event({"content": w if i == 0 else " " + w})
            time.sleep(0.02)
        event({}, "stop", {"prompt_tokens": 10, "completion_tokens": len(words), "total_tokens": 10 + len(words)})
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.close_connection = True

    def do_GET(self):
        self.record()
        u = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(u.query)
        if u.path == "/v1/models":
            doc = {"object": "list", "data": [{"id": "standin-1", "object": "model", "owned_by": name}]}
            self.send_body(200, json.dumps(doc).encode(), "application/json")
        elif u.path == "/release":
            released.set()
            self.send_body(200, b"released\n")
        elif u.path == "/hello":
            self.send_body(200, ("hello from %s\n" % name).encode())
        elif u.path == "/sse":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            for i in range(5):
                self.wfile.write(("data: event %d t=%.3f\n\n" % (i, time.time())).encode())
                self.wfile.flush()
                if i == 0 and "hold" in q:
                    released.wait(30)
                else:
                    time.sleep(0.05)
            self.close_connection = True
        elif u.path == "/big":
            mb = int(q.get("mb", ["1"])[0])
            chunk = bytes(range(256)) * 4096
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(mb * len(chunk)))
            self.end_headers()
            for _ in range(mb):
                self.wfile.write(chunk)
        else:
            p = os.path.normpath(os.path.join(root, u.path.lstrip("/")))
            if os.path.isdir(p) and os.path.isfile(p + "/index.json"):
                p += "/index.json"   # a registry document beside its tarballs
            if not p.startswith(root) or not os.path.isfile(p):
                self.send_body(404, b"not found\n")
                return
            with open(p, "rb") as f:
                data = f.read()
            base = os.path.basename(p)
            self.send_body(200, data, "application/json" if base.endswith(".json") else "application/octet-stream")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256


plain = Server((addr, int(http_port)), Handler)
tls = Server((addr, int(https_port)), Handler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
tls.socket = ctx.wrap_socket(tls.socket, server_side=True)
threading.Thread(target=plain.serve_forever, daemon=True).start()
print("ready", flush=True)
tls.serve_forever()
