/**
 * Spec 5.6: the `dev-state.md` next step belongs to @dev. Only dev (or an unregistered agent, with
 * the `(@dev)` label) receives it; every other registered agent receives the workflow stage and the
 * artefact its handoff contract expects from it.
 */
import { REGISTERED_AGENTS } from "../core/agent.ts";
import { devNextStep, type ContextFiles, type WorkflowState } from "./context-files.ts";

export type NextStep =
  | { kind: "dev"; label: "Next step" | "Next step (@dev)"; text: string | null }
  | { kind: "workflow"; stage: string | null; mode: string | null };

/** The artefacts the handoff contract expects from `agent` (empty for agents without one). */
export function expectedArtifacts(agent: string, mode: string | null, feature: string | null): string[] {
  const slug = mode === "feature" && feature ? feature : null;
  const context = ".aioson/context/";
  switch (agent) {
    case "setup":
      return [`${context}project.context.md`];
    case "product":
    case "sheldon":
      return [slug ? `${context}prd-${slug}.md` : `${context}prd.md`];
    case "planner":
      return [slug ? `${context}implementation-plan-${slug}.md` : `${context}implementation-plan.md`];
    case "pentester":
      return slug ? [`${context}security-findings-${slug}.json`] : [];
    default:
      return [];
  }
}

/** `<current>` (+ ` → next: <next>` when it differs); null without a current stage. */
export function workflowStage(workflow: WorkflowState | null): string | null {
  const current = workflow?.current?.trim();
  if (!current) return null;
  const next = workflow?.next?.trim();
  return next && next !== current ? `${current} → next: ${next}` : current;
}

export function nextStepFor(agent: string, files: ContextFiles): NextStep {
  if (agent === "dev") return { kind: "dev", label: "Next step", text: devNextStep(files.devState()) };
  if (!REGISTERED_AGENTS.has(agent)) return { kind: "dev", label: "Next step (@dev)", text: devNextStep(files.devState()) };
  const workflow = files.workflow();
  return { kind: "workflow", stage: workflowStage(workflow), mode: workflow?.mode?.trim() ?? null };
}
