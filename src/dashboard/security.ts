/**
 * Who may talk to the dashboard. It serves what agents recorded in every project of the user, so:
 *
 * - every request carries this run's random token: in the URL once (`/?token=`), which sets an HttpOnly,
 *   SameSite=Strict cookie and redirects to a clean URL, then in that cookie;
 * - the Host header must name this server by an IP literal, `localhost` or the `--host` given (a DNS-rebinding page
 *   reaches the port under its own host name, which is refused), with this server's port;
 * - a request that says where it comes from (Origin, Sec-Fetch-Site) must come from this origin, or from the user
 *   typing the address;
 * - only GET and HEAD: the dashboard changes nothing.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers on every response, assets and errors included. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
  "Cache-Control": "no-store",
};

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Cookies are shared by every port of a host, so each port has its own name. */
export function cookieName(port: number): string {
  return `aioson_dashboard_${port}`;
}

export function sessionCookie(port: number, token: string): string {
  return `${cookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`;
}

function sameSecret(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function cookieToken(header: string | null, port: number): string | null {
  if (!header) return null;
  const name = `${cookieName(port)}=`;
  for (const part of header.split(";")) {
    const item = part.trim();
    if (item.startsWith(name)) return item.slice(name.length);
  }
  return null;
}

export function hasValidCookie(request: Request, port: number, token: string): boolean {
  const given = cookieToken(request.headers.get("cookie"), port);
  return given !== null && sameSecret(given, token);
}

export function hasValidUrlToken(url: URL, token: string): boolean {
  const given = url.searchParams.get("token");
  return given !== null && sameSecret(given, token);
}

/** `host[:port]` of a Host header, IPv6 literals in brackets; null when malformed. */
export function splitHost(value: string): { host: string; port: number | null } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!match) return null;
  return { host: (match[1] as string).toLowerCase(), port: match[2] === undefined ? null : Number(match[2]) };
}

function isIpLiteral(host: string): boolean {
  return host.startsWith("[") ? isIP(host.slice(1, -1)) === 6 : isIP(host) === 4;
}

/** Host names this server answers to: IP literals, localhost, and the `--host` it was started with. */
export function allowedHost(host: string, bound: string): boolean {
  const name = host.toLowerCase();
  const boundName = bound.toLowerCase();
  return isIpLiteral(name) || name === "localhost" || name === boundName || name === `[${boundName}]`;
}

export type Refusal = { status: number; message: string };

/** Checks that do not need the token: method, Host, Origin, Sec-Fetch-Site. Null when the request may go on. */
export function refuseRequest(request: Request, port: number, bound: string): Refusal | null {
  if (request.method !== "GET" && request.method !== "HEAD") return { status: 405, message: "The dashboard is read-only: only GET and HEAD." };
  const hostHeader = request.headers.get("host");
  const host = hostHeader ? splitHost(hostHeader) : null;
  if (!host || !allowedHost(host.host, bound) || (host.port ?? 80) !== port) {
    return { status: 421, message: "This dashboard answers only to its own address (Host header refused)." };
  }
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== `http://${hostHeader?.trim().toLowerCase()}`) return { status: 403, message: "Cross-origin request refused." };
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") return { status: 403, message: "Cross-site request refused." };
  return null;
}
