# upstream.py - not a technique: a server outside the sandbox on the host's
# loopback for the egress techniques (41, 43).  Every request head it
# receives is logged (request line and Host header), bytes that are not an
# HTTP request are logged as RAW; /big answers 8 MiB, anything else a short
# text.  Keeps connections alive, so pipelined requests are each logged.
# usage: python3 upstream.py PORT LOG
import socket
import sys
import threading

port, log = int(sys.argv[1]), sys.argv[2]
lock = threading.Lock()


def note(line):
    with lock, open(log, "a") as f:
        f.write(line + "\n")


def serve(c):
    buf = b""
    try:
        while True:
            while b"\r\n\r\n" not in buf:
                d = c.recv(65536)
                if not d:
                    if buf:
                        note("RAW %r" % buf[:60])
                    return
                buf += d
                if len(buf) > 4 and not buf[:1].isalpha():
                    note("RAW %r" % buf[:60])
                    return
            head, buf = buf.split(b"\r\n\r\n", 1)
            lines = head.split(b"\r\n")
            host = [l.split(b":", 1)[1].strip() for l in lines[1:] if l.lower().startswith(b"host:")]
            note("REQ %s host=%s" % (lines[0].decode("latin-1"), b",".join(host).decode("latin-1")))
            path = lines[0].split(b" ")[1] if len(lines[0].split(b" ")) > 1 else b"/"
            body = b"x" * (8 << 20) if path.endswith(b"/big") else b"hello from upstream\n"
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    except OSError:
        pass
    finally:
        c.close()


s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port))
s.listen(64)
print("upstream ready", flush=True)
while True:
    conn, _ = s.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
