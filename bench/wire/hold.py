"""Holds N keep-alive connections open against a DynamoDB endpoint: each connects, sends one
ListTables, reads the answer, and then stays idle until this process is killed (SIGTERM).
Prints "holding N" once all are open (or "failed after K: error" and exits 1).

    python3 bench/wire/hold.py http://127.0.0.1:8000/ 10000

Needs a file limit above N (held_connections.sh raises it)."""
import signal
import socket
import sys
import time
import urllib.parse


def main():
    url = urllib.parse.urlparse(sys.argv[1])
    count = int(sys.argv[2])
    request = ("POST / HTTP/1.1\r\nHost: %s\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n"
               "Content-Type: application/x-amz-json-1.0\r\nContent-Length: 2\r\n\r\n{}"
               % url.netloc).encode()
    held = []
    # Connect and send in batches of 500, then read the batch's answers: the listen queue and the
    # server's accept loop are never asked for more than that at once.
    try:
        for start in range(0, count, 500):
            batch = []
            for _ in range(min(500, count - start)):
                s = socket.create_connection((url.hostname, url.port), timeout=30)
                s.sendall(request)
                batch.append(s)
            for s in batch:
                answer = b""
                while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
                    chunk = s.recv(4096)
                    if not chunk:
                        raise OSError("closed by the server")
                    answer += chunk
                if not answer.startswith(b"HTTP/1.1 200"):
                    raise OSError("answered " + answer.split(b"\r\n")[0].decode())
            held.extend(batch)
    except OSError as e:
        print("failed after %d: %s" % (len(held), e), flush=True)
        sys.exit(1)
    print("holding %d" % len(held), flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
