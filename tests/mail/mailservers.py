"""Private, throw-away Dovecot (IMAP + LMTP) and Postfix (SMTP) instances on loopback.

Integration tests talk to real servers: mail clients and servers disagree in
ways fakes never show (literal continuations, IDLE timing, 4xx replies, UID
gaps). Both servers run from configuration files in a temporary directory and
listen on 127.0.0.1 only; nothing of the system configuration is touched.
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

DOMAIN = "pbem.test"
PASSWORD = "secret"
INSTALL_HINT = (
    "real mail servers are needed for the mail integration tests: run tests/install-mail-servers "
    "(apt-get install dovecot-imapd dovecot-lmtpd postfix)"
)


class MailServerError(RuntimeError):
    """The private mail servers could not be started or driven."""


#: Starts tried with fresh ports when one was taken meanwhile.
PORT_TRIES = 4


def _ephemeral_ports() -> range:
    """The ports the kernel gives to outgoing connections (Linux's default if unreadable)."""
    with contextlib.suppress(OSError, ValueError):
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return range(int(low), int(high) + 1)
    return range(32768, 61000)


def free_port() -> int:
    """A free port for a server to listen on, below the kernel's ephemeral range: a port the
    kernel handed out (bind to 0) could be taken again by any of the suite's outgoing
    connections in the second before the server binds it ("Address already in use")."""
    ephemeral = _ephemeral_ports()
    low = 10_000 if ephemeral.start > 20_000 else 1_024
    high = ephemeral.start - 1 if ephemeral.start > low + 1_000 else 65_535
    for _ in range(1_000):
        port = random.randint(low, high)
        if port in ephemeral:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise MailServerError("no free port for the test mail servers")


def wait_port(port: int, up: bool, timeout: float = 15.0) -> None:
    """Wait until 127.0.0.1:port accepts (up) or refuses (not up) connections."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                if up:
                    return
        except OSError:
            if not up:
                return
        time.sleep(0.05)
    raise MailServerError(f"port {port} did not go {'up' if up else 'down'} within {timeout:.0f} s")


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def write_test_certificates(directory: Path, ca_file: Path, cert_file: Path, key_file: Path) -> None:
    """A throw-away CA and a certificate it signed for localhost/127.0.0.1, valid for a day, as PEM files.

    Strict enough for Python's default verification (key identifiers, key usage, basic constraints).
    """
    directory.mkdir(parents=True, exist_ok=True)
    now = datetime.datetime.now(datetime.UTC)
    start, end = now - datetime.timedelta(minutes=5), now + datetime.timedelta(days=1)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pbem test CA")])
    ca_ski = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    no_usage = dict(
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        encipher_only=False,
        decipher_only=False,
    )
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(digital_signature=False, key_cert_sign=True, crl_sign=True, **no_usage), critical=True
        )
        .add_extension(ca_ski, critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(digital_signature=True, key_cert_sign=False, crl_sign=False, **no_usage), critical=True
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    ca_file.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    key_file.chmod(0o600)


def find_program(name: str) -> str | None:
    """The servers live in sbin, which is not on every PATH."""
    found = shutil.which(name)
    if found:
        return found
    candidate = Path("/usr/sbin", name)
    return str(candidate) if candidate.exists() else None


def missing_programs() -> list[str]:
    return [name for name in ("dovecot", "doveadm", "postfix", "postconf") if find_program(name) is None]


def servers_unavailable() -> str:
    """Why real mail servers cannot run here ("" when they can)."""
    missing = missing_programs()
    if missing:
        return f"real mail servers not available: {', '.join(missing)} not found; {INSTALL_HINT}"
    if os.geteuid() != 0:
        return "real mail servers not available: Postfix must be started as root; run the mail tests as root"
    return ""


def _program(name: str) -> str:
    return find_program(name) or name


def _run(args: list[str], timeout: float = 30.0) -> None:
    # Output goes to a file, not a pipe: the daemons fork and would keep a pipe open forever.
    with tempfile.TemporaryFile() as out:
        done = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=out, stderr=out, timeout=timeout, check=False)
        if done.returncode != 0:
            out.seek(0)
            text = out.read().decode(errors="replace").strip()
            raise MailServerError(f"{' '.join(args)} failed: {text}")


@dataclass
class MailServers:
    """A running Dovecot + Postfix pair; users are added on the fly."""

    root: Path
    imap_port: int = field(default_factory=free_port)
    lmtp_port: int = field(default_factory=free_port)
    smtp_port: int = field(default_factory=free_port)
    sasl_port: int = field(default_factory=free_port)
    users: dict[str, str] = field(default_factory=dict)
    # With tls: implicit TLS listeners (imaps, smtps) and STARTTLS on the plain ports,
    # with a certificate for localhost/127.0.0.1 signed by a throw-away CA (ca_file).
    tls: bool = False
    imaps_port: int = 0
    smtps_port: int = 0
    # With an introspection URL, Dovecot also accepts OAuth 2.0 bearer tokens (XOAUTH2,
    # OAUTHBEARER) for IMAP and, through its SASL service, for Postfix: it asks that URL
    # whether a token is active and whose it is.
    oauth_url: str = ""

    # --- paths -----------------------------------------------------------------------------------
    @property
    def dovecot_conf(self) -> Path:
        return self.root / "dovecot" / "dovecot.conf"

    @property
    def postfix_dir(self) -> Path:
        return self.root / "postfix"

    @property
    def access_file(self) -> Path:
        return self.postfix_dir / "recipient_access"

    @property
    def tls_dir(self) -> Path:
        return self.root / "tls"

    @property
    def ca_file(self) -> Path:
        """The PEM certificate of the test CA; clients trust the servers with it."""
        return self.tls_dir / "ca.pem"

    @property
    def cert_file(self) -> Path:
        return self.tls_dir / "server.pem"

    @property
    def key_file(self) -> Path:
        return self.tls_dir / "server.key"

    # --- lifecycle -------------------------------------------------------------------------------
    def start(self) -> None:
        missing = missing_programs()
        if missing:
            raise MailServerError(f"{', '.join(missing)} not found; {INSTALL_HINT}")
        if os.geteuid() != 0:
            raise MailServerError("Postfix must be started as root; run the mail integration tests as root")
        # Temporary directories are private (0700); the postfix and mail users must traverse them.
        self.root.chmod(0o755)
        if self.tls:
            self.imaps_port = self.imaps_port or free_port()
            self.smtps_port = self.smtps_port or free_port()
            write_test_certificates(self.tls_dir, self.ca_file, self.cert_file, self.key_file)
        for attempt in range(PORT_TRIES):
            self._write_dovecot()
            self._write_postfix()
            try:
                self.start_dovecot()
                self.start_postfix()
                return
            except MailServerError as err:
                # Another worker's servers may take a port between its choice and the bind.
                if "already in use" not in str(err) or attempt == PORT_TRIES - 1:
                    raise
                self.stop()
                self.imap_port, self.lmtp_port, self.smtp_port, self.sasl_port = (free_port() for _ in range(4))
                if self.tls:
                    self.imaps_port, self.smtps_port = free_port(), free_port()

    def stop(self) -> None:
        # Stopping what never started (or cannot be found) must not hide the real error.
        for action in (self.stop_postfix, self.stop_dovecot):
            with contextlib.suppress(MailServerError, subprocess.TimeoutExpired, OSError):
                action()

    def start_dovecot(self) -> None:
        _run([_program("dovecot"), "-c", str(self.dovecot_conf)])
        wait_port(self.imap_port, up=True)
        wait_port(self.lmtp_port, up=True)
        if self.tls:
            wait_port(self.imaps_port, up=True)

    def stop_dovecot(self) -> None:
        _run([_program("doveadm"), "-c", str(self.dovecot_conf), "stop"])
        wait_port(self.imap_port, up=False)
        # Logged-in IMAP processes outlive the master here; a real restart ends them.
        self.kill_imap_sessions()

    def crash_dovecot(self) -> None:
        """Kill Dovecot's master and every process under it with SIGKILL, as a machine's crash
        would: nothing is flushed, closed or logged out, and the next start finds what a
        crash leaves (a stale pid file, indexes mid-write)."""
        pid_file = self.root / "dovecot" / "run" / "master.pid"
        master = int(pid_file.read_text().split()[0])
        doomed = [master, *_descendants(master)]
        for pid in doomed:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        wait_port(self.imap_port, up=False)
        # The killed master's children are its until it is reaped: wait until none is left.
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in doomed) and time.monotonic() < deadline:
            time.sleep(0.05)
        # Dovecot refuses to start while its pid file names a live process, and a master killed
        # here stays a zombie where nothing reaps orphans (a container): after a real crash
        # that number names no process.
        if not _alive(master):
            pid_file.unlink(missing_ok=True)

    def kill_imap_sessions(self) -> None:
        """End the IMAP processes serving connections on this instance's port (found by socket)."""
        done = subprocess.run(
            ["ss", "-Htnp", "state", "established", f"( sport = :{self.imap_port} )"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        pids = {int(m) for m in re.findall(r"pid=(\d+)", done.stdout)}
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    def start_postfix(self) -> None:
        _run([_program("postfix"), "-c", str(self.postfix_dir), "start"])
        wait_port(self.smtp_port, up=True)
        if self.tls:
            wait_port(self.smtps_port, up=True)

    def stop_postfix(self) -> None:
        _run([_program("postfix"), "-c", str(self.postfix_dir), "stop"])
        wait_port(self.smtp_port, up=False)

    def abort_postfix(self) -> None:
        """Stop Postfix abruptly, as a crash: sessions are cut mid-transaction (its queue, on disk, stays)."""
        _run([_program("postfix"), "-c", str(self.postfix_dir), "abort"])
        wait_port(self.smtp_port, up=False)

    def postfix_running(self) -> bool:
        return _accepts(self.smtp_port)

    def dovecot_running(self) -> bool:
        return _accepts(self.imap_port)

    def reload_postfix(self) -> None:
        _run([_program("postfix"), "-c", str(self.postfix_dir), "reload"])
        time.sleep(0.3)  # smtpd processes pick up the new table on their next connection

    def flush_postfix(self) -> None:
        """Ask Postfix to retry its deferred queue now instead of after minutes."""
        _run([_program("postfix"), "-c", str(self.postfix_dir), "flush"])

    def purge_postfix_queue(self) -> None:
        """Drop every mail Postfix still holds (active, deferred or on hold) undelivered."""
        _run([_program("postsuper"), "-c", str(self.postfix_dir), "-d", "ALL"])

    # --- users and faults ------------------------------------------------------------------------
    def add_user(self, name: str) -> str:
        """A mailbox; returns its address.

        Every address of the test domain exists with the password PASSWORD
        (static passdb/userdb): Dovecot re-reads a passwd-file at most once a
        second, which made freshly added users fail to log in now and then.
        """
        address = f"{name}@{DOMAIN}"
        self.users[address] = PASSWORD
        return address

    def set_access(self, rules: dict[str, str]) -> None:
        """Answer RCPT TO for these addresses with the given reply (e.g. "450 4.7.1 later"), then reload."""
        self.access_file.write_text("".join(f"{addr} {reply}\n" for addr, reply in rules.items()))
        self.reload_postfix()

    def maillog(self) -> str:
        path = self.root / "postfix.log"
        return path.read_text(errors="replace") if path.exists() else ""

    # --- configuration files ---------------------------------------------------------------------
    def _write_dovecot(self) -> None:
        base = self.root / "dovecot"
        (base / "run").mkdir(parents=True, exist_ok=True)
        (base / "state").mkdir(parents=True, exist_ok=True)
        homes = self.root / "homes"
        homes.mkdir(parents=True, exist_ok=True)
        shutil.chown(homes, "nobody", "nogroup")
        if self.oauth_url:
            (base / "oauth2.conf").write_text(
                f"introspection_mode = post\nintrospection_url = {self.oauth_url}\n"
                "username_attribute = username\nactive_attribute = active\nactive_value = true\n"
            )
            mechanisms = "plain login xoauth2 oauthbearer"
            oauth_passdb = (
                f"passdb {{\n  driver = oauth2\n  mechanisms = xoauth2 oauthbearer\n"
                f"  args = {base / 'oauth2.conf'}\n}}\n"
            )
        else:
            mechanisms, oauth_passdb = "plain login", ""
        if self.tls:
            # ssl = yes also makes the plain listener offer STARTTLS.
            ssl_settings = f"ssl = yes\nssl_cert = <{self.cert_file}\nssl_key = <{self.key_file}"
            imaps = f"address = 127.0.0.1\n    port = {self.imaps_port}"
        else:
            ssl_settings, imaps = "ssl = no", "port = 0"
        self.dovecot_conf.write_text(f"""\
protocols = imap lmtp
base_dir = {base / "run"}
state_dir = {base / "state"}
log_path = {self.root / "dovecot.log"}
info_log_path = {self.root / "dovecot.log"}
listen = 127.0.0.1
{ssl_settings}
disable_plaintext_auth = no
auth_mechanisms = {mechanisms}
first_valid_uid = 1
mail_location = maildir:~/Maildir
imap_idle_notify_interval = 1 secs
# No pause after a refused login (2 s by default, against password guessing) and no
# growing penalty for the address that failed (anvil's, up to 15 s per login, and every
# login comes from 127.0.0.1): the OAuth and fault tests are refused on purpose.
auth_failure_delay = 0
shutdown_clients = yes
passdb {{
  driver = static
  mechanisms = plain login
  args = password={PASSWORD}
}}
{oauth_passdb}userdb {{
  driver = static
  args = uid=65534 gid=65534 home={self.root / "homes"}/%n allow_all_users=yes
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    {imaps}
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {self.lmtp_port}
  }}
}}
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service auth {{
  inet_listener {{
    address = 127.0.0.1
    port = {self.sasl_port}
  }}
}}
protocol lmtp {{
  postmaster_address = postmaster@{DOMAIN}
}}
""")

    def _write_postfix(self) -> None:
        conf = self.postfix_dir
        conf.mkdir(parents=True, exist_ok=True)
        queue = self.root / "spool"
        data = self.root / "data"
        queue.mkdir(exist_ok=True)
        data.mkdir(exist_ok=True)
        shutil.chown(data, "postfix", "postfix")
        self.access_file.write_text("")
        system_master = Path("/etc/postfix/master.cf").read_text()
        master_lines = []
        for line in system_master.splitlines():
            if line.startswith("smtp ") and " inet " in f" {line} ":
                line = f"127.0.0.1:{self.smtp_port} inet n - n - - smtpd"
            master_lines.append(line)
        if self.tls:
            master_lines.append(
                f"127.0.0.1:{self.smtps_port} inet n - n - - smtpd\n"
                "  -o smtpd_tls_wrappermode=yes\n  -o smtpd_tls_security_level=encrypt"
            )
            tls_settings = (
                f"smtpd_tls_security_level = may\nsmtpd_tls_cert_file = {self.cert_file}\n"
                f"smtpd_tls_key_file = {self.key_file}"
            )
        else:
            tls_settings = "smtpd_tls_security_level = none"
        (conf / "master.cf").write_text("\n".join(master_lines) + "\n")
        (conf / "main.cf").write_text(f"""\
compatibility_level = 3.6
queue_directory = {queue}
data_directory = {data}
maillog_file = {self.root / "postfix.log"}
maillog_file_prefixes = {self.root}
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mail.{DOMAIN}
mydestination =
mynetworks = 127.0.0.0/8
virtual_mailbox_domains = {DOMAIN}
virtual_transport = lmtp:inet:127.0.0.1:{self.lmtp_port}
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:{self.sasl_port}
{tls_settings}
smtpd_recipient_restrictions = check_recipient_access texthash:{self.access_file},
    permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination
message_size_limit = 20480000
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
alias_maps =
alias_database =
smtputf8_enable = no
""")
        _run([_program("postfix"), "-c", str(conf), "post-install", "create-missing"], timeout=60)


def _descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (read from /proc), children before grandchildren."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie, killed and waiting to be reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
