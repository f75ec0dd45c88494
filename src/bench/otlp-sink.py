"""An OTLP/HTTP receiver for the benchmark: accepts every export (traces, metrics, logs), keeps nothing, and counts
what it received, so the service under test exports its telemetry as a deployment does (to a collector) without
one being installed. Usage: python3 src/bench/otlp-sink.py PORT; prints its counts when it is stopped (SIGTERM)."""
import signal
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

received = {"requests": 0, "bytes": 0}


class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(length)
        received["requests"] += 1
        received["bytes"] += length
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def stop(*_):
    print(f"otlp sink: {received['requests']} exports, {received['bytes']} bytes", flush=True)
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Sink).serve_forever()
