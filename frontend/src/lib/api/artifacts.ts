// The Artifacts bound struct (app/artifacts.go): the zips and generated images in the artifacts directory.

import * as Artifacts from '../../../wailsjs/go/app/Artifacts';
import type { app, record, service } from '../../../wailsjs/go/models';
import { call } from './call';

export type ArtifactList = service.ArtifactList;
export type ArtifactItem = record.ArtifactItem;
export type ArtifactEntry = record.ArtifactEntry;
export type DragSource = app.DragSource;

/** list returns the zips and images, newest first, with their verdicts. */
export const list = (): Promise<ArtifactList> => call(() => Artifacts.List());

/** copyPath puts the file's absolute path on the clipboard. */
export const copyPath = (path: string): Promise<void> => call(() => Artifacts.CopyPath(path));

/** reveal shows the file in the file manager. */
export const reveal = (path: string): Promise<void> => call(() => Artifacts.RevealInFolder(path));

/** open opens a verified file in the desktop's application for it (an archive manager, the image viewer). */
export const open = (path: string): Promise<void> => call(() => Artifacts.Open(path));

/** remove moves the file and its provenance to the trash. */
export const remove = (path: string): Promise<void> => call(() => Artifacts.Delete(path));

/** saveAs asks where to save a copy of a verified file; resolves the new path, or "" when cancelled. */
export const saveAs = (path: string): Promise<string> => call(() => Artifacts.SaveAs(path));

/** dragSource says what a drag-out writes: a text/uri-list (WebKitGTK) or Chromium's DownloadURL on loopback (WebView2). */
export const dragSource = (): Promise<DragSource> => call(() => Artifacts.DragSource());

/** thumbnail resolves a data: URL of a small preview of a verified image (rejects for anything else, or when no preview can be made). */
export const thumbnail = (path: string): Promise<string> => call(() => Artifacts.Thumbnail(path));
