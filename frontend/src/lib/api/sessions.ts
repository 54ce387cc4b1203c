// The Sessions bound struct (app/sessions.go): the history of runs.

import * as Sessions from '../../../wailsjs/go/app/Sessions';
import type { app, record, service } from '../../../wailsjs/go/models';
import { call } from './call';

export type SessionList = app.SessionList;
export type SessionDetail = service.SessionDetail;
export type HistoryFilter = app.HistoryFilter;
/** One History row: a run's summary and its search hit, never the whole run (see app.SessionList). */
export type Listed = app.HistoryItem;
export type HistoryItem = app.HistoryItem;
export type HistorySummary = app.HistorySummary;
export type Session = record.Run;
export type JournalEntry = record.JournalEntry;
export type Hit = record.Hit;
export type Match = record.Match;
export type ExportFormat = 'md' | 'json';

/** list searches the runs; rejects with bad_input for an unknown state. */
export const list = (query: string, site: string, state: string, limit: number): Promise<SessionList> =>
  call(() => Sessions.List(query, site, state, limit));

/** show returns one run and its journal; rejects with session_not_found. */
export const show = (id: string): Promise<SessionDetail> => call(() => Sessions.Show(id));

/** exportText returns the run rendered as Markdown or JSON. */
export const exportText = (id: string, format: ExportFormat): Promise<string> => call(() => Sessions.Export(id, format));

/** copyExport puts the export on the clipboard. */
export const copyExport = (id: string, format: ExportFormat): Promise<void> => call(() => Sessions.CopyExport(id, format));

/** saveExport asks where to save the export; resolves "" when cancelled. */
export const saveExport = (id: string, format: ExportFormat): Promise<string> => call(() => Sessions.SaveExport(id, format));

/** saveReport asks where to save the failure report (one zip) of a failed run; resolves "" when cancelled, rejects with bad_input for a run that did not fail. */
export const saveReport = (id: string): Promise<string> => call(() => Sessions.SaveReport(id));

/** find searches the runs within creation dates (RFC 3339, "" for no bound); rejects with bad_input for a bad range. */
export const find = (f: HistoryFilter): Promise<SessionList> => call(() => Sessions.Find(f));
