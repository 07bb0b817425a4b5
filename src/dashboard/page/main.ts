/** The dashboard page: a hash router over the views (`#/`, `#/p/<project>`, `#/p/<project>/h|r/<session>`). */
import { ApiError } from "./client.ts";
import { empty, h, replace } from "./dom.ts";
import { projectView, projectsView, sessionView, type Crumb, type ViewContext } from "./views.ts";

const main = document.getElementById("app") as HTMLElement;
const crumbs = document.getElementById("crumbs") as HTMLElement;
const live = document.getElementById("live") as HTMLElement;

let leave: Array<() => void> = [];

function setCrumbs(items: Crumb[]): void {
  replace(crumbs, ...items.flatMap((item, i) => [i > 0 ? h("span", { class: "sep", attrs: { "aria-hidden": "true" } }, "›") : null, item.href ? h("a", { href: item.href }, item.label) : h("span", null, item.label)]));
}

function setLive(connected: boolean): void {
  live.textContent = connected ? "live" : "reconnecting…";
  live.className = connected ? "live on" : "live";
}

function parts(): string[] {
  return location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
}

async function route(): Promise<void> {
  for (const cleanup of leave) cleanup();
  leave = [];
  const ctx: ViewContext = { main, crumbs: setCrumbs, live: setLive, onLeave: (cleanup) => leave.push(cleanup) };
  const [first, project, kind, key] = parts();
  try {
    if (first === "p" && project && (kind === "h" || kind === "r") && key !== undefined) await sessionView(ctx, project, kind, key);
    else if (first === "p" && project) await projectView(ctx, project, kind === "health" ? "health" : "sessions");
    else await projectsView(ctx);
  } catch (error) {
    const message = error instanceof ApiError && error.status === 401 ? "This page needs the address `aioson dashboard` printed (it carries the run's token)." : error instanceof Error ? error.message : String(error);
    replace(main, h("div", { class: "page-head" }, h("h1", null, "Something went wrong")), empty(message));
  }
  window.scrollTo(0, 0);
}

window.addEventListener("hashchange", () => void route());
// A browser keeps at most six connections per host over HTTP/1.1 and each open view holds one for its push: a tab
// in the background gives its connection back, and reloads its view when it is shown again.
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) return void route();
  for (const cleanup of leave) cleanup();
  leave = [];
  setLive(false);
});
void route();
