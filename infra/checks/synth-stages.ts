import { readFileSync } from 'node:fs';
import { App, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { stackName } from '../settings.js';
import { CallTrackingStack } from '../stack.js';
import type { TemplateResources } from './stateful-resources.js';

/** The stages whose stateful resources are pinned and whose templates are checked (cdk.json ships both). */
export const CHECKED_STAGES = ['prod', 'staging'] as const;

export interface SynthesizedStage {
  stage: string;
  stack: CallTrackingStack;
  /** The stage's template. */
  parent: TemplateResources;
  /** Every nested stack's template, by its path in the construct tree. */
  nested: Record<string, TemplateResources>;
}

/**
 * Both stages synthesized in one app with cdk.json's context, without bundling (an empty
 * bundling-stacks list makes NodejsFunction skip esbuild: synth takes seconds, not minutes).
 */
export function synthStages(cdkJson = new URL('../../cdk.json', import.meta.url)): SynthesizedStage[] {
  const { context } = JSON.parse(readFileSync(cdkJson, 'utf8')) as { context: Record<string, unknown> };
  const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  const stacks = CHECKED_STAGES.map((stage) => new CallTrackingStack(app, stackName(stage), { stage }));
  return stacks.map((stack, index) => ({ stage: CHECKED_STAGES[index]!, stack, ...templatesOf(stack) }));
}

/** A synthesized stack's template and its nested stacks' (the app synthesizes on the first call). */
export function templatesOf(stack: Stack): { parent: TemplateResources; nested: Record<string, TemplateResources> } {
  return {
    parent: Template.fromStack(stack).toJSON() as TemplateResources,
    nested: Object.fromEntries(
      stack.node
        .findAll()
        .filter((construct): construct is NestedStack => NestedStack.isNestedStack(construct))
        .map((nested) => [nested.node.path, Template.fromStack(nested).toJSON() as TemplateResources]),
    ),
  };
}
