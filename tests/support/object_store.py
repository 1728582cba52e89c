"""A local S3 server for tests of s3:// log folders: moto's server mode in a thread of
the test process, on a loopback port. Commands under test reach it over HTTP through
Inspect's own file access (fsspec and s3fs), told where it is by AWS_ENDPOINT_URL;
the test itself looks into the bucket with boto3.

moto keeps its buckets in process-wide state that outlives one server, so each server
is reset as it starts: a bucket another test of the same process filled is not seen."""

from __future__ import annotations

import logging
from pathlib import Path
from types import TracebackType
from typing import Any

import boto3
import httpx
from moto.server import ThreadedMotoServer

REGION = "us-east-1"


class S3Server:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        self.url = ""

    def __enter__(self) -> S3Server:
        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per request
        self._server.start()
        host, port = self._server.get_host_and_port()
        self.url = f"http://{host}:{port}"
        httpx.post(f"{self.url}/moto-api/reset", timeout=30).raise_for_status()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._server.stop()

    def env(self, endpoint: str | None = None) -> dict[str, str]:
        """The variables a command needs to use this server (or `endpoint`), and
        nothing from the user's own AWS configuration."""
        return {
            "AWS_ENDPOINT_URL": endpoint or self.url,
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": REGION,
            "AWS_CONFIG_FILE": str(self.folder / "no-aws-config"),
            "AWS_SHARED_CREDENTIALS_FILE": str(self.folder / "no-aws-credentials"),
            "AWS_EC2_METADATA_DISABLED": "true",
        }

    def client(self) -> Any:
        return boto3.client(
            "s3", endpoint_url=self.url, region_name=REGION,
            aws_access_key_id="testing", aws_secret_access_key="testing",
        )  # fmt: skip

    def buckets(self) -> list[str]:
        return sorted(b["Name"] for b in self.client().list_buckets()["Buckets"])

    def keys(self, bucket: str, prefix: str = "") -> list[str]:
        listed = self.client().list_objects_v2(Bucket=bucket, Prefix=prefix)
        return sorted(item["Key"] for item in listed.get("Contents", []))

    def read(self, bucket: str, key: str) -> bytes:
        body: bytes = self.client().get_object(Bucket=bucket, Key=key)["Body"].read()
        return body

    def write(self, bucket: str, key: str, data: bytes) -> None:
        self.client().put_object(Bucket=bucket, Key=key, Body=data)
