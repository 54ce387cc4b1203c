// The Runs bound struct (app/runs.go): sending prompts through the job
// runner, the pickers' data (sites, models, templates, projects), and a
// project's sources.

import * as Runs from '../../../wailsjs/go/app/Runs';
import type { app, record, service } from '../../../wailsjs/go/models';
import { call } from './call';

export type RunSpec = app.RunSpec;
export type BroadcastSpec = app.BroadcastSpec;
export type RunInfo = app.RunInfo;
export type ModelInfo = service.ModelInfo;
export type SiteInfo = service.SiteInfo;
export type TemplateInfo = service.Template;
export type RetryOutcome = app.RetryOutcome;
export type RetryHold = service.RetryHold;
export type Project = service.Project;

/** start sends one run; rejects with bad_input for an incomplete spec. */
export const start = (spec: RunSpec): Promise<RunInfo> => call(() => Runs.Start(spec));

/** broadcast sends the prompt to every site at once. */
export const broadcast = (spec: BroadcastSpec): Promise<RunInfo[]> => call(() => Runs.Broadcast(spec));

/** active lists every run going on now, from any origin (desktop, CLI, agents). */
export const active = (): Promise<RunInfo[]> => call(() => Runs.Active());

/** cancel stops a run. */
export const cancel = (id: string): Promise<RunInfo> => call(() => Runs.Cancel(id));

/** collect collects the rest of a run stopped after its prompt was sent, as a new run. */
export const collect = (id: string): Promise<RunInfo> => call(() => Runs.Collect(id));

/** retry sends a run's prompt again as a new run. */
export const retry = (id: string): Promise<RunInfo> => call(() => Runs.Retry(id));

/**
 * retryRun sends History's run (a session id) again as a new run: at once
 * when it stopped before its send; when the site may already hold its
 * prompt only with sendAgain (else the outcome's held says why).
 */
export const retryRun = (session: string, sendAgain: boolean): Promise<RetryOutcome> => call(() => Runs.RetryRun(session, sendAgain));

/** collectRun collects History's run's answer without sending its prompt again, as a new run. */
export const collectRun = (session: string): Promise<RunInfo> => call(() => Runs.CollectRun(session));

/** showTab shows the tab of run session's conversation in Ferry's browser. */
export const showTab = (session: string): Promise<record.TabState> => call(() => Runs.ShowTab(session));

/** retryOnTab sends run id's request again pinned to tab tabId (after tab_ambiguous). */
export const retryOnTab = (id: string, tabId: string): Promise<RunInfo> => call(() => Runs.RetryOnTab(id, tabId));

/** get returns a run with its session and timeline. */
export const get = (id: string): Promise<RunInfo> => call(() => Runs.Get(id));

/** sites lists the site registry. */
export const sites = (): Promise<SiteInfo[]> => call(() => Runs.Sites());

/** models lists a site's model aliases from the capability registry. */
export const models = (site: string): Promise<ModelInfo[]> => call(() => Runs.Models(site));

/**
 * projects lists the account's projects on a site, as its page lists them,
 * in a tab opened for it; rejects with login_required (or the site's other
 * readiness errors) when the site's tab cannot list them.
 */
export const projects = (site: string): Promise<Project[]> => call(() => Runs.Projects(site));

export type AddedSources = service.AddedSources;
export type SourceFile = service.SourceFile;

/** SourcesRequest names the files (absolute paths) to add to a project's sources. */
export interface SourcesRequest {
  site: string;
  project: string;
  files: string[];
  confirmed: boolean;
}

/**
 * addProjectSources adds files to the sources of a project on a site once
 * confirmed; unconfirmed it only resolves the project and checks the files
 * (nothing uploaded). A file the site did not take is in the answer with its
 * error; a bad file or an unknown project rejects, nothing uploaded.
 */
export const addProjectSources = (req: SourcesRequest): Promise<AddedSources> =>
  call(() => Runs.AddProjectSources({ ...req, timeoutMs: 0 } as service.AddSourcesRequest));

/** templates lists the prompt templates. */
export const templates = (): Promise<TemplateInfo[]> => call(() => Runs.Templates());

/** renderTemplate fills a template's variables. */
export const renderTemplate = (name: string, vars: Record<string, string>): Promise<string> =>
  call(() => Runs.RenderTemplate(name, vars));
