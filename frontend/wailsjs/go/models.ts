export namespace app {
	
	export class BroadcastSpec {
	    prompt: string;
	    template: string;
	    vars: {[key: string]: string};
	    sites: string[];
	    models: {[key: string]: string};
	    newChat: boolean;
	    files: string[];
	
	    static createFrom(source: any = {}) {
	        return new BroadcastSpec(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.prompt = source["prompt"];
	        this.template = source["template"];
	        this.vars = source["vars"];
	        this.sites = source["sites"];
	        this.models = source["models"];
	        this.newChat = source["newChat"];
	        this.files = source["files"];
	    }
	}
	export class DemoStatus {
	    active: boolean;
	
	    static createFrom(source: any = {}) {
	        return new DemoStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.active = source["active"];
	    }
	}
	export class DragSource {
	    kind: string;
	    base?: string;
	
	    static createFrom(source: any = {}) {
	        return new DragSource(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.base = source["base"];
	    }
	}
	export class HotkeyStatus {
	    hotkey: string;
	    active: boolean;
	    problem?: errs.Envelope;
	    note?: string;
	
	    static createFrom(source: any = {}) {
	        return new HotkeyStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hotkey = source["hotkey"];
	        this.active = source["active"];
	        this.problem = this.convertValues(source["problem"], errs.Envelope);
	        this.note = source["note"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ExtrasStatus {
	    hotkey: HotkeyStatus;
	    tray: boolean;
	    notifications: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ExtrasStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hotkey = this.convertValues(source["hotkey"], HotkeyStatus);
	        this.tray = source["tray"];
	        this.notifications = source["notifications"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class HistoryFilter {
	    query: string;
	    site: string;
	    state: string;
	    states: string[];
	    tool: string;
	    from: string;
	    to: string;
	    limit: number;
	
	    static createFrom(source: any = {}) {
	        return new HistoryFilter(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.query = source["query"];
	        this.site = source["site"];
	        this.state = source["state"];
	        this.states = source["states"];
	        this.tool = source["tool"];
	        this.from = source["from"];
	        this.to = source["to"];
	        this.limit = source["limit"];
	    }
	}
	export class HistorySummary {
	    id: string;
	    site: string;
	    model?: string;
	    state: string;
	    tool?: string;
	    // Go type: time
	    created: any;
	    prompt: string;
	    artifacts?: number;
	
	    static createFrom(source: any = {}) {
	        return new HistorySummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.site = source["site"];
	        this.model = source["model"];
	        this.state = source["state"];
	        this.tool = source["tool"];
	        this.created = this.convertValues(source["created"], null);
	        this.prompt = source["prompt"];
	        this.artifacts = source["artifacts"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class HistoryItem {
	    session: HistorySummary;
	    hit: record.Hit;
	
	    static createFrom(source: any = {}) {
	        return new HistoryItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = this.convertValues(source["session"], HistorySummary);
	        this.hit = this.convertValues(source["hit"], record.Hit);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class Locations {
	    dataDir: string;
	    configDir: string;
	    settingsFile: string;
	    storeDir: string;
	    profileDir: string;
	    artifactsDir: string;
	    hubFile: string;
	
	    static createFrom(source: any = {}) {
	        return new Locations(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dataDir = source["dataDir"];
	        this.configDir = source["configDir"];
	        this.settingsFile = source["settingsFile"];
	        this.storeDir = source["storeDir"];
	        this.profileDir = source["profileDir"];
	        this.artifactsDir = source["artifactsDir"];
	        this.hubFile = source["hubFile"];
	    }
	}
	export class MCPConfig {
	    name: string;
	    title: string;
	    file: string;
	    format: string;
	    snippet: string;
	    binary: string;
	    found: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MCPConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.file = source["file"];
	        this.format = source["format"];
	        this.snippet = source["snippet"];
	        this.binary = source["binary"];
	        this.found = source["found"];
	    }
	}
	export class ResetResult {
	    backup: string;
	
	    static createFrom(source: any = {}) {
	        return new ResetResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.backup = source["backup"];
	    }
	}
	export class RunInfo {
	    id: string;
	    kind: string;
	    state: string;
	    ended: boolean;
	    collectable?: boolean;
	    requestedBy?: string;
	    origin: string;
	    clientName?: string;
	    template?: string;
	    vars?: {[key: string]: string};
	    site?: string;
	    tabId?: string;
	    model?: string;
	    prompt: string;
	    newChat?: boolean;
	    // Go type: time
	    created: any;
	    // Go type: time
	    updated: any;
	    error?: errs.Envelope;
	    session?: record.Run;
	    timeline: record.JournalEntry[];
	
	    static createFrom(source: any = {}) {
	        return new RunInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.state = source["state"];
	        this.ended = source["ended"];
	        this.collectable = source["collectable"];
	        this.requestedBy = source["requestedBy"];
	        this.origin = source["origin"];
	        this.clientName = source["clientName"];
	        this.template = source["template"];
	        this.vars = source["vars"];
	        this.site = source["site"];
	        this.tabId = source["tabId"];
	        this.model = source["model"];
	        this.prompt = source["prompt"];
	        this.newChat = source["newChat"];
	        this.created = this.convertValues(source["created"], null);
	        this.updated = this.convertValues(source["updated"], null);
	        this.error = this.convertValues(source["error"], errs.Envelope);
	        this.session = this.convertValues(source["session"], record.Run);
	        this.timeline = this.convertValues(source["timeline"], record.JournalEntry);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RetryOutcome {
	    run?: RunInfo;
	    held?: service.RetryHold;
	
	    static createFrom(source: any = {}) {
	        return new RetryOutcome(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.run = this.convertValues(source["run"], RunInfo);
	        this.held = this.convertValues(source["held"], service.RetryHold);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class RunSpec {
	    kind: string;
	    site: string;
	    tabId: string;
	    model: string;
	    effort: string;
	    tool: string;
	    prompt: string;
	    template: string;
	    vars: {[key: string]: string};
	    newChat: boolean;
	    temporary: boolean;
	    archiveAfter: boolean;
	    project: string;
	    gpt: string;
	    followUp: string;
	    shownRun: string;
	    files: string[];
	    zips: string;
	    allowInline: boolean;
	    contract: string;
	    repoRoot: string;
	    sourcePaths: string[];
	
	    static createFrom(source: any = {}) {
	        return new RunSpec(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.site = source["site"];
	        this.tabId = source["tabId"];
	        this.model = source["model"];
	        this.effort = source["effort"];
	        this.tool = source["tool"];
	        this.prompt = source["prompt"];
	        this.template = source["template"];
	        this.vars = source["vars"];
	        this.newChat = source["newChat"];
	        this.temporary = source["temporary"];
	        this.archiveAfter = source["archiveAfter"];
	        this.project = source["project"];
	        this.gpt = source["gpt"];
	        this.followUp = source["followUp"];
	        this.shownRun = source["shownRun"];
	        this.files = source["files"];
	        this.zips = source["zips"];
	        this.allowInline = source["allowInline"];
	        this.contract = source["contract"];
	        this.repoRoot = source["repoRoot"];
	        this.sourcePaths = source["sourcePaths"];
	    }
	}
	export class SessionList {
	    items: HistoryItem[];
	    total: number;
	
	    static createFrom(source: any = {}) {
	        return new SessionList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.items = this.convertValues(source["items"], HistoryItem);
	        this.total = source["total"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Status {
	    dataDir: string;
	    configDir: string;
	    settingsFile: string;
	    storeDir: string;
	    problem?: errs.Envelope;
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dataDir = source["dataDir"];
	        this.configDir = source["configDir"];
	        this.settingsFile = source["settingsFile"];
	        this.storeDir = source["storeDir"];
	        this.problem = this.convertValues(source["problem"], errs.Envelope);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace config {
	
	export class ArtifactSettings {
	    outputDir: string;
	    maxZipBytes: number;
	    maxEntries: number;
	    maxTotalUncompressedBytes: number;
	    maxRatio: number;
	
	    static createFrom(source: any = {}) {
	        return new ArtifactSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.outputDir = source["outputDir"];
	        this.maxZipBytes = source["maxZipBytes"];
	        this.maxEntries = source["maxEntries"];
	        this.maxTotalUncompressedBytes = source["maxTotalUncompressedBytes"];
	        this.maxRatio = source["maxRatio"];
	    }
	}
	export class BrowserSettings {
	    binary: string;
	    headless: boolean;
	    extraArgs: string[];
	    attachURL: string;
	
	    static createFrom(source: any = {}) {
	        return new BrowserSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.binary = source["binary"];
	        this.headless = source["headless"];
	        this.extraArgs = source["extraArgs"];
	        this.attachURL = source["attachURL"];
	    }
	}
	export class QuickPromptSettings {
	    hotkey: string;
	    defaultSite: string;
	
	    static createFrom(source: any = {}) {
	        return new QuickPromptSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hotkey = source["hotkey"];
	        this.defaultSite = source["defaultSite"];
	    }
	}
	export class RunSettings {
	    answerTimeout: string;
	    rateLimitCooldown?: string;
	    noFailureScreenshot?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new RunSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.answerTimeout = source["answerTimeout"];
	        this.rateLimitCooldown = source["rateLimitCooldown"];
	        this.noFailureScreenshot = source["noFailureScreenshot"];
	    }
	}
	export class Settings {
	    version: number;
	    theme: string;
	    browser: BrowserSettings;
	    quickPrompt: QuickPromptSettings;
	    notifications: boolean;
	    run: RunSettings;
	    artifacts: ArtifactSettings;
	    sites: number[][];
	    welcomeDismissed?: boolean;
	    broadcastSites?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.theme = source["theme"];
	        this.browser = this.convertValues(source["browser"], BrowserSettings);
	        this.quickPrompt = this.convertValues(source["quickPrompt"], QuickPromptSettings);
	        this.notifications = source["notifications"];
	        this.run = this.convertValues(source["run"], RunSettings);
	        this.artifacts = this.convertValues(source["artifacts"], ArtifactSettings);
	        this.sites = source["sites"];
	        this.welcomeDismissed = source["welcomeDismissed"];
	        this.broadcastSites = source["broadcastSites"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace errs {
	
	export class TabCandidate {
	    targetId: string;
	    url: string;
	    title?: string;
	
	    static createFrom(source: any = {}) {
	        return new TabCandidate(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.targetId = source["targetId"];
	        this.url = source["url"];
	        this.title = source["title"];
	    }
	}
	export class Envelope {
	    stage: string;
	    code: string;
	    message: string;
	    retryHint?: string;
	    retryable: boolean;
	    evidence?: {[key: string]: string};
	    tabs?: TabCandidate[];
	
	    static createFrom(source: any = {}) {
	        return new Envelope(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.stage = source["stage"];
	        this.code = source["code"];
	        this.message = source["message"];
	        this.retryHint = source["retryHint"];
	        this.retryable = source["retryable"];
	        this.evidence = source["evidence"];
	        this.tabs = this.convertValues(source["tabs"], TabCandidate);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace record {
	
	export class Artifact {
	    name: string;
	    path?: string;
	    sha256?: string;
	    bytes?: number;
	    verdict?: string;
	    reason?: string;
	    kind?: string;
	    mime?: string;
	    width?: number;
	    height?: number;
	    siteFile?: string;
	    file?: string;
	
	    static createFrom(source: any = {}) {
	        return new Artifact(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.path = source["path"];
	        this.sha256 = source["sha256"];
	        this.bytes = source["bytes"];
	        this.verdict = source["verdict"];
	        this.reason = source["reason"];
	        this.kind = source["kind"];
	        this.mime = source["mime"];
	        this.width = source["width"];
	        this.height = source["height"];
	        this.siteFile = source["siteFile"];
	        this.file = source["file"];
	    }
	}
	export class ArtifactEntry {
	    name: string;
	    size: number;
	    compressedSize: number;
	    crc32: number;
	    mode: number;
	    method: number;
	    dir?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ArtifactEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.size = source["size"];
	        this.compressedSize = source["compressedSize"];
	        this.crc32 = source["crc32"];
	        this.mode = source["mode"];
	        this.method = source["method"];
	        this.dir = source["dir"];
	    }
	}
	export class ArtifactRun {
	    id: string;
	    prompt: string;
	    // Go type: time
	    created: any;
	    state: string;
	
	    static createFrom(source: any = {}) {
	        return new ArtifactRun(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.prompt = source["prompt"];
	        this.created = this.convertValues(source["created"], null);
	        this.state = source["state"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ArtifactProblem {
	    reason: string;
	    entry?: string;
	    detail: string;
	    blocking: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ArtifactProblem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.reason = source["reason"];
	        this.entry = source["entry"];
	        this.detail = source["detail"];
	        this.blocking = source["blocking"];
	    }
	}
	export class ArtifactItem {
	    path: string;
	    name: string;
	    kind?: string;
	    size: number;
	    sha256: string;
	    // Go type: time
	    modified: any;
	    status: string;
	    reason?: string;
	    why?: string;
	    site?: string;
	    session?: string;
	    conversationUrl?: string;
	    // Go type: time
	    verifiedAt: any;
	    files: ArtifactEntry[];
	    problems?: ArtifactProblem[];
	    mime?: string;
	    width?: number;
	    height?: number;
	    title?: string;
	    header?: string;
	    sources?: number;
	    run?: ArtifactRun;
	
	    static createFrom(source: any = {}) {
	        return new ArtifactItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.size = source["size"];
	        this.sha256 = source["sha256"];
	        this.modified = this.convertValues(source["modified"], null);
	        this.status = source["status"];
	        this.reason = source["reason"];
	        this.why = source["why"];
	        this.site = source["site"];
	        this.session = source["session"];
	        this.conversationUrl = source["conversationUrl"];
	        this.verifiedAt = this.convertValues(source["verifiedAt"], null);
	        this.files = this.convertValues(source["files"], ArtifactEntry);
	        this.problems = this.convertValues(source["problems"], ArtifactProblem);
	        this.mime = source["mime"];
	        this.width = source["width"];
	        this.height = source["height"];
	        this.title = source["title"];
	        this.header = source["header"];
	        this.sources = source["sources"];
	        this.run = this.convertValues(source["run"], ArtifactRun);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class Attachment {
	    path: string;
	    name: string;
	    bytes: number;
	    sha256: string;
	    renamedFrom?: string;
	    siteName?: string;
	
	    static createFrom(source: any = {}) {
	        return new Attachment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.bytes = source["bytes"];
	        this.sha256 = source["sha256"];
	        this.renamedFrom = source["renamedFrom"];
	        this.siteName = source["siteName"];
	    }
	}
	export class CodeBlock {
	    language?: string;
	    code: string;
	
	    static createFrom(source: any = {}) {
	        return new CodeBlock(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.language = source["language"];
	        this.code = source["code"];
	    }
	}
	export class ZipTransport {
	    way?: string;
	    filesShared?: boolean;
	    sharing?: string;
	
	    static createFrom(source: any = {}) {
	        return new ZipTransport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.way = source["way"];
	        this.filesShared = source["filesShared"];
	        this.sharing = source["sharing"];
	    }
	}
	export class ZipReceipt {
	    sandboxPath?: string;
	    inline?: boolean;
	    savedPath?: string;
	    sidecar?: string;
	    verified: boolean;
	    quarantined?: boolean;
	    sha256?: string;
	    size?: number;
	    files?: number;
	    transport?: ZipTransport;
	    error?: errs.Envelope;
	
	    static createFrom(source: any = {}) {
	        return new ZipReceipt(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sandboxPath = source["sandboxPath"];
	        this.inline = source["inline"];
	        this.savedPath = source["savedPath"];
	        this.sidecar = source["sidecar"];
	        this.verified = source["verified"];
	        this.quarantined = source["quarantined"];
	        this.sha256 = source["sha256"];
	        this.size = source["size"];
	        this.files = source["files"];
	        this.transport = this.convertValues(source["transport"], ZipTransport);
	        this.error = this.convertValues(source["error"], errs.Envelope);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ComplianceWarning {
	    kind: string;
	    path: string;
	    line?: number;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new ComplianceWarning(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.path = source["path"];
	        this.line = source["line"];
	        this.message = source["message"];
	    }
	}
	export class Outcome {
	    contract: string;
	    ruling?: string;
	    reason?: string;
	    planSteps?: number;
	    diff?: boolean;
	    zips?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Outcome(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.contract = source["contract"];
	        this.ruling = source["ruling"];
	        this.reason = source["reason"];
	        this.planSteps = source["planSteps"];
	        this.diff = source["diff"];
	        this.zips = source["zips"];
	    }
	}
	export class Place {
	    kind: string;
	    name?: string;
	    address: string;
	    filed: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Place(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.name = source["name"];
	        this.address = source["address"];
	        this.filed = source["filed"];
	    }
	}
	export class Timings {
	    ready_ms: number;
	    compose_ms: number;
	    submit_ms: number;
	    wait_ms: number;
	    extract_ms: number;
	    total_ms: number;
	    first_text_ms?: number;
	
	    static createFrom(source: any = {}) {
	        return new Timings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ready_ms = source["ready_ms"];
	        this.compose_ms = source["compose_ms"];
	        this.submit_ms = source["submit_ms"];
	        this.wait_ms = source["wait_ms"];
	        this.extract_ms = source["extract_ms"];
	        this.total_ms = source["total_ms"];
	        this.first_text_ms = source["first_text_ms"];
	    }
	}
	export class Content {
	    sha256: string;
	    bytes: number;
	    runes: number;
	    source: string;
	
	    static createFrom(source: any = {}) {
	        return new Content(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sha256 = source["sha256"];
	        this.bytes = source["bytes"];
	        this.runes = source["runes"];
	        this.source = source["source"];
	    }
	}
	export class Transport {
	    source: string;
	    decoder?: string;
	    complete_reason: string;
	    stream_bytes?: number;
	    partials: number;
	    handed_off?: boolean;
	    socket_items?: number;
	
	    static createFrom(source: any = {}) {
	        return new Transport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.source = source["source"];
	        this.decoder = source["decoder"];
	        this.complete_reason = source["complete_reason"];
	        this.stream_bytes = source["stream_bytes"];
	        this.partials = source["partials"];
	        this.handed_off = source["handed_off"];
	        this.socket_items = source["socket_items"];
	    }
	}
	export class Routing {
	    requested_tab_id?: string;
	    controlled_tab_id: string;
	    tab_was_created: boolean;
	    mismatch: boolean;
	    url?: string;
	
	    static createFrom(source: any = {}) {
	        return new Routing(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.requested_tab_id = source["requested_tab_id"];
	        this.controlled_tab_id = source["controlled_tab_id"];
	        this.tab_was_created = source["tab_was_created"];
	        this.mismatch = source["mismatch"];
	        this.url = source["url"];
	    }
	}
	export class ToolProof {
	    requested: string;
	    selected?: string;
	    request?: string;
	    verified: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolProof(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.requested = source["requested"];
	        this.selected = source["selected"];
	        this.request = source["request"];
	        this.verified = source["verified"];
	    }
	}
	export class ModelProof {
	    requested: string;
	    selected?: string;
	    effort?: string;
	    slug?: string;
	    source?: string;
	    domSlug?: string;
	    verified: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ModelProof(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.requested = source["requested"];
	        this.selected = source["selected"];
	        this.effort = source["effort"];
	        this.slug = source["slug"];
	        this.source = source["source"];
	        this.domSlug = source["domSlug"];
	        this.verified = source["verified"];
	    }
	}
	export class Result {
	    site: string;
	    answer: string;
	    codeBlocks: CodeBlock[];
	    model: ModelProof;
	    tool?: ToolProof;
	    routing: Routing;
	    transport: Transport;
	    content: Content;
	    conversationId?: string;
	    messageId?: string;
	    timings: Timings;
	    warnings?: string[];
	    images?: Artifact[];
	    temporary?: boolean;
	    archived?: boolean;
	    place?: Place;
	    report?: Artifact;
	
	    static createFrom(source: any = {}) {
	        return new Result(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.site = source["site"];
	        this.answer = source["answer"];
	        this.codeBlocks = this.convertValues(source["codeBlocks"], CodeBlock);
	        this.model = this.convertValues(source["model"], ModelProof);
	        this.tool = this.convertValues(source["tool"], ToolProof);
	        this.routing = this.convertValues(source["routing"], Routing);
	        this.transport = this.convertValues(source["transport"], Transport);
	        this.content = this.convertValues(source["content"], Content);
	        this.conversationId = source["conversationId"];
	        this.messageId = source["messageId"];
	        this.timings = this.convertValues(source["timings"], Timings);
	        this.warnings = source["warnings"];
	        this.images = this.convertValues(source["images"], Artifact);
	        this.temporary = source["temporary"];
	        this.archived = source["archived"];
	        this.place = this.convertValues(source["place"], Place);
	        this.report = this.convertValues(source["report"], Artifact);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class StepReceipt {
	    contract: string;
	    promptSha256: string;
	    result?: Result;
	    outcome?: Outcome;
	    compliance?: ComplianceWarning[];
	    error?: errs.Envelope;
	
	    static createFrom(source: any = {}) {
	        return new StepReceipt(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.contract = source["contract"];
	        this.promptSha256 = source["promptSha256"];
	        this.result = this.convertValues(source["result"], Result);
	        this.outcome = this.convertValues(source["outcome"], Outcome);
	        this.compliance = this.convertValues(source["compliance"], ComplianceWarning);
	        this.error = this.convertValues(source["error"], errs.Envelope);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ReceiptLayer {
	    status: string;
	    detail?: string;
	
	    static createFrom(source: any = {}) {
	        return new ReceiptLayer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.status = source["status"];
	        this.detail = source["detail"];
	    }
	}
	export class ReceiptLayers {
	    routing: ReceiptLayer;
	    transport: ReceiptLayer;
	    content: ReceiptLayer;
	    download: ReceiptLayer;
	
	    static createFrom(source: any = {}) {
	        return new ReceiptLayers(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.routing = this.convertValues(source["routing"], ReceiptLayer);
	        this.transport = this.convertValues(source["transport"], ReceiptLayer);
	        this.content = this.convertValues(source["content"], ReceiptLayer);
	        this.download = this.convertValues(source["download"], ReceiptLayer);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CodeReceipt {
	    kind: string;
	    ok: boolean;
	    site: string;
	    contract: string;
	    multiZip: boolean;
	    allowInline: boolean;
	    conversationId?: string;
	    conversationUrl?: string;
	    layers: ReceiptLayers;
	    steps: StepReceipt[];
	    zips: ZipReceipt[];
	    sourceProvenance?: string;
	    warnings?: string[];
	    error?: errs.Envelope;
	    receipt?: string;
	    sessions?: string[];
	    // Go type: time
	    startedAt: any;
	    // Go type: time
	    finishedAt: any;
	    ferryVersion: string;
	
	    static createFrom(source: any = {}) {
	        return new CodeReceipt(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.ok = source["ok"];
	        this.site = source["site"];
	        this.contract = source["contract"];
	        this.multiZip = source["multiZip"];
	        this.allowInline = source["allowInline"];
	        this.conversationId = source["conversationId"];
	        this.conversationUrl = source["conversationUrl"];
	        this.layers = this.convertValues(source["layers"], ReceiptLayers);
	        this.steps = this.convertValues(source["steps"], StepReceipt);
	        this.zips = this.convertValues(source["zips"], ZipReceipt);
	        this.sourceProvenance = source["sourceProvenance"];
	        this.warnings = source["warnings"];
	        this.error = this.convertValues(source["error"], errs.Envelope);
	        this.receipt = source["receipt"];
	        this.sessions = source["sessions"];
	        this.startedAt = this.convertValues(source["startedAt"], null);
	        this.finishedAt = this.convertValues(source["finishedAt"], null);
	        this.ferryVersion = source["ferryVersion"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class Finding {
	    from: string;
	    looked: boolean;
	    found: boolean;
	    action: string;
	    detail: string;
	
	    static createFrom(source: any = {}) {
	        return new Finding(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.looked = source["looked"];
	        this.found = source["found"];
	        this.action = source["action"];
	        this.detail = source["detail"];
	    }
	}
	export class Fingerprint {
	    hash: string;
	    // Go type: time
	    at: any;
	    conversation?: string;
	    confirmed: boolean;
	    confirmedBy?: string;
	    retry_of?: string;
	    reason?: string;
	    // Go type: time
	    not_before: any;
	
	    static createFrom(source: any = {}) {
	        return new Fingerprint(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hash = source["hash"];
	        this.at = this.convertValues(source["at"], null);
	        this.conversation = source["conversation"];
	        this.confirmed = source["confirmed"];
	        this.confirmedBy = source["confirmedBy"];
	        this.retry_of = source["retry_of"];
	        this.reason = source["reason"];
	        this.not_before = this.convertValues(source["not_before"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Match {
	    field: string;
	    file?: number;
	    positions: number[];
	
	    static createFrom(source: any = {}) {
	        return new Match(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.field = source["field"];
	        this.file = source["file"];
	        this.positions = source["positions"];
	    }
	}
	export class Hit {
	    id: string;
	    site: string;
	    model: string;
	    state: string;
	    tool?: string;
	    // Go type: time
	    created: any;
	    files?: string[];
	    prompt?: string;
	    score: number;
	    matches?: Match[];
	    snippet: string;
	
	    static createFrom(source: any = {}) {
	        return new Hit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.site = source["site"];
	        this.model = source["model"];
	        this.state = source["state"];
	        this.tool = source["tool"];
	        this.created = this.convertValues(source["created"], null);
	        this.files = source["files"];
	        this.prompt = source["prompt"];
	        this.score = source["score"];
	        this.matches = this.convertValues(source["matches"], Match);
	        this.snippet = source["snippet"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class JournalEntry {
	    seq: number;
	    state: string;
	    // Go type: time
	    at: any;
	    note?: string;
	    fingerprint?: Fingerprint;
	    error?: errs.Envelope;
	
	    static createFrom(source: any = {}) {
	        return new JournalEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.seq = source["seq"];
	        this.state = source["state"];
	        this.at = this.convertValues(source["at"], null);
	        this.note = source["note"];
	        this.fingerprint = this.convertValues(source["fingerprint"], Fingerprint);
	        this.error = this.convertValues(source["error"], errs.Envelope);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Receipt {
	    layer: string;
	    // Go type: time
	    at: any;
	    data: {[key: string]: string};
	
	    static createFrom(source: any = {}) {
	        return new Receipt(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.layer = source["layer"];
	        this.at = this.convertValues(source["at"], null);
	        this.data = source["data"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Run {
	    id: string;
	    site: string;
	    modelRequested?: string;
	    effortRequested?: string;
	    toolRequested?: string;
	    model: ModelProof;
	    tool?: ToolProof;
	    targetId?: string;
	    conversationUrl?: string;
	    conversationId?: string;
	    messageId?: string;
	    prompt: string;
	    task?: string;
	    template?: string;
	    contract?: string;
	    parent?: string;
	    thread?: string;
	    // Go type: time
	    created: any;
	    // Go type: time
	    updated: any;
	    // Go type: time
	    deadline: any;
	    state: string;
	    stateBefore?: string;
	    warnings?: string[];
	    error?: errs.Envelope;
	    answer?: string;
	    answerPartial?: boolean;
	    codeBlocks?: CodeBlock[];
	    answerSource?: string;
	    routing?: Routing;
	    transport?: Transport;
	    content?: Content;
	    timings?: Timings;
	    fingerprint?: Fingerprint;
	    artifacts?: Artifact[];
	    receipts?: Receipt[];
	    origin: string;
	    approval: string;
	    codeMode?: boolean;
	    temporary?: boolean;
	    archived?: boolean;
	    archiveAfter?: boolean;
	    confirmPlan?: boolean;
	    place?: Place;
	    attachments?: Attachment[];
	    seq: number;
	
	    static createFrom(source: any = {}) {
	        return new Run(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.site = source["site"];
	        this.modelRequested = source["modelRequested"];
	        this.effortRequested = source["effortRequested"];
	        this.toolRequested = source["toolRequested"];
	        this.model = this.convertValues(source["model"], ModelProof);
	        this.tool = this.convertValues(source["tool"], ToolProof);
	        this.targetId = source["targetId"];
	        this.conversationUrl = source["conversationUrl"];
	        this.conversationId = source["conversationId"];
	        this.messageId = source["messageId"];
	        this.prompt = source["prompt"];
	        this.task = source["task"];
	        this.template = source["template"];
	        this.contract = source["contract"];
	        this.parent = source["parent"];
	        this.thread = source["thread"];
	        this.created = this.convertValues(source["created"], null);
	        this.updated = this.convertValues(source["updated"], null);
	        this.deadline = this.convertValues(source["deadline"], null);
	        this.state = source["state"];
	        this.stateBefore = source["stateBefore"];
	        this.warnings = source["warnings"];
	        this.error = this.convertValues(source["error"], errs.Envelope);
	        this.answer = source["answer"];
	        this.answerPartial = source["answerPartial"];
	        this.codeBlocks = this.convertValues(source["codeBlocks"], CodeBlock);
	        this.answerSource = source["answerSource"];
	        this.routing = this.convertValues(source["routing"], Routing);
	        this.transport = this.convertValues(source["transport"], Transport);
	        this.content = this.convertValues(source["content"], Content);
	        this.timings = this.convertValues(source["timings"], Timings);
	        this.fingerprint = this.convertValues(source["fingerprint"], Fingerprint);
	        this.artifacts = this.convertValues(source["artifacts"], Artifact);
	        this.receipts = this.convertValues(source["receipts"], Receipt);
	        this.origin = source["origin"];
	        this.approval = source["approval"];
	        this.codeMode = source["codeMode"];
	        this.temporary = source["temporary"];
	        this.archived = source["archived"];
	        this.archiveAfter = source["archiveAfter"];
	        this.confirmPlan = source["confirmPlan"];
	        this.place = this.convertValues(source["place"], Place);
	        this.attachments = this.convertValues(source["attachments"], Attachment);
	        this.seq = source["seq"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Listed {
	    session?: Run;
	    hit: Hit;
	
	    static createFrom(source: any = {}) {
	        return new Listed(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = this.convertValues(source["session"], Run);
	        this.hit = this.convertValues(source["hit"], Hit);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	
	
	
	
	
	
	
	
	export class TabState {
	    targetId: string;
	    site?: string;
	    siteName?: string;
	    title: string;
	    url: string;
	    conversation?: string;
	    state: string;
	    message?: string;
	    code?: string;
	    hint?: string;
	
	    static createFrom(source: any = {}) {
	        return new TabState(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.targetId = source["targetId"];
	        this.site = source["site"];
	        this.siteName = source["siteName"];
	        this.title = source["title"];
	        this.url = source["url"];
	        this.conversation = source["conversation"];
	        this.state = source["state"];
	        this.message = source["message"];
	        this.code = source["code"];
	        this.hint = source["hint"];
	    }
	}
	
	
	
	

}

export namespace service {
	
	export class BrowserSpec {
	    mode: string;
	    url?: string;
	    chromium?: string;
	    headless?: boolean;
	    args?: string[];
	
	    static createFrom(source: any = {}) {
	        return new BrowserSpec(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mode = source["mode"];
	        this.url = source["url"];
	        this.chromium = source["chromium"];
	        this.headless = source["headless"];
	        this.args = source["args"];
	    }
	}
	export class AddSourcesRequest {
	    site?: string;
	    project: string;
	    files: string[];
	    confirmed?: boolean;
	    timeoutMs: number;
	    browser?: BrowserSpec;
	
	    static createFrom(source: any = {}) {
	        return new AddSourcesRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.site = source["site"];
	        this.project = source["project"];
	        this.files = source["files"];
	        this.confirmed = source["confirmed"];
	        this.timeoutMs = source["timeoutMs"];
	        this.browser = this.convertValues(source["browser"], BrowserSpec);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SourceFile {
	    path: string;
	    name: string;
	    bytes: number;
	    sha256: string;
	    renamedFrom?: string;
	    siteName?: string;
	    status?: string;
	    error?: errs.Envelope;
	
	    static createFrom(source: any = {}) {
	        return new SourceFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.bytes = source["bytes"];
	        this.sha256 = source["sha256"];
	        this.renamedFrom = source["renamedFrom"];
	        this.siteName = source["siteName"];
	        this.status = source["status"];
	        this.error = this.convertValues(source["error"], errs.Envelope);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Project {
	    name: string;
	    address: string;
	
	    static createFrom(source: any = {}) {
	        return new Project(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.address = source["address"];
	    }
	}
	export class AddedSources {
	    project: Project;
	    confirmed: boolean;
	    files: SourceFile[];
	
	    static createFrom(source: any = {}) {
	        return new AddedSources(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.project = this.convertValues(source["project"], Project);
	        this.confirmed = source["confirmed"];
	        this.files = this.convertValues(source["files"], SourceFile);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Approval {
	    jobId: string;
	    clientId: string;
	    clientName: string;
	    kind: string;
	    site?: string;
	    summary: string;
	    // Go type: time
	    requestedAt: any;
	    model?: string;
	    where?: string;
	    continues: boolean;
	    existing?: boolean;
	    prompt: string;
	    files?: record.Attachment[];
	
	    static createFrom(source: any = {}) {
	        return new Approval(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.jobId = source["jobId"];
	        this.clientId = source["clientId"];
	        this.clientName = source["clientName"];
	        this.kind = source["kind"];
	        this.site = source["site"];
	        this.summary = source["summary"];
	        this.requestedAt = this.convertValues(source["requestedAt"], null);
	        this.model = source["model"];
	        this.where = source["where"];
	        this.continues = source["continues"];
	        this.existing = source["existing"];
	        this.prompt = source["prompt"];
	        this.files = this.convertValues(source["files"], record.Attachment);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ArtifactList {
	    dir: string;
	    items: record.ArtifactItem[];
	
	    static createFrom(source: any = {}) {
	        return new ArtifactList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dir = source["dir"];
	        this.items = this.convertValues(source["items"], record.ArtifactItem);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class BrowserState {
	    status: string;
	    mode: string;
	    launched: boolean;
	    headless: boolean;
	    pid?: number;
	    endpoint?: string;
	    problem?: errs.Envelope;
	
	    static createFrom(source: any = {}) {
	        return new BrowserState(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.status = source["status"];
	        this.mode = source["mode"];
	        this.launched = source["launched"];
	        this.headless = source["headless"];
	        this.pid = source["pid"];
	        this.endpoint = source["endpoint"];
	        this.problem = this.convertValues(source["problem"], errs.Envelope);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ClientInfo {
	    id: string;
	    name: string;
	    autoApprove: boolean;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    revokedAt?: any;
	    existingConversations?: boolean;
	    kind?: string;
	    fileRoots?: string[];
	
	    static createFrom(source: any = {}) {
	        return new ClientInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.autoApprove = source["autoApprove"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.revokedAt = this.convertValues(source["revokedAt"], null);
	        this.existingConversations = source["existingConversations"];
	        this.kind = source["kind"];
	        this.fileRoots = source["fileRoots"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FileCheck {
	    path: string;
	    name: string;
	    bytes: number;
	    sha256: string;
	    renamedFrom?: string;
	    siteName?: string;
	    error?: errs.Envelope;
	
	    static createFrom(source: any = {}) {
	        return new FileCheck(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.bytes = source["bytes"];
	        this.sha256 = source["sha256"];
	        this.renamedFrom = source["renamedFrom"];
	        this.siteName = source["siteName"];
	        this.error = this.convertValues(source["error"], errs.Envelope);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FilesCheck {
	    ok: boolean;
	    site: string;
	    siteName: string;
	    maxFiles?: number;
	    maxFileBytes?: number;
	    files: FileCheck[];
	    error?: errs.Envelope;
	
	    static createFrom(source: any = {}) {
	        return new FilesCheck(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.site = source["site"];
	        this.siteName = source["siteName"];
	        this.maxFiles = source["maxFiles"];
	        this.maxFileBytes = source["maxFileBytes"];
	        this.files = this.convertValues(source["files"], FileCheck);
	        this.error = this.convertValues(source["error"], errs.Envelope);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FilesCheckRequest {
	    site: string;
	    model?: string;
	    files: string[];
	
	    static createFrom(source: any = {}) {
	        return new FilesCheckRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.site = source["site"];
	        this.model = source["model"];
	        this.files = source["files"];
	    }
	}
	export class JobTarget {
	    site?: string;
	    where: string;
	    continues: boolean;
	    existing?: boolean;
	    files?: record.Attachment[];
	
	    static createFrom(source: any = {}) {
	        return new JobTarget(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.site = source["site"];
	        this.where = source["where"];
	        this.continues = source["continues"];
	        this.existing = source["existing"];
	        this.files = this.convertValues(source["files"], record.Attachment);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class JobRequest {
	    kind: string;
	    prompt: string;
	    site?: string;
	    model?: string;
	    effort?: string;
	    tool?: string;
	    confirmPlan?: boolean;
	    temporary?: boolean;
	    archiveAfter?: boolean;
	    project?: string;
	    gpt?: string;
	    template?: string;
	    vars?: {[key: string]: string};
	    contract?: string;
	    sessionId?: string;
	    tabId?: string;
	    newChat?: boolean;
	    shownRun?: string;
	    conversation?: string;
	    multiZip?: boolean;
	    allowInline?: boolean;
	    architectureAuthorized?: boolean;
	    goal?: string;
	    goalLock?: boolean;
	    research?: boolean;
	    outDir?: string;
	    repoRoot?: string;
	    sourcePaths?: string[];
	    sourceAs?: string;
	    files?: string[];
	    inlineFiles?: boolean;
	    timeoutSeconds?: number;
	    cooldownSeconds?: number;
	    browser?: BrowserSpec;
	    requestedBy?: string;
	
	    static createFrom(source: any = {}) {
	        return new JobRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.prompt = source["prompt"];
	        this.site = source["site"];
	        this.model = source["model"];
	        this.effort = source["effort"];
	        this.tool = source["tool"];
	        this.confirmPlan = source["confirmPlan"];
	        this.temporary = source["temporary"];
	        this.archiveAfter = source["archiveAfter"];
	        this.project = source["project"];
	        this.gpt = source["gpt"];
	        this.template = source["template"];
	        this.vars = source["vars"];
	        this.contract = source["contract"];
	        this.sessionId = source["sessionId"];
	        this.tabId = source["tabId"];
	        this.newChat = source["newChat"];
	        this.shownRun = source["shownRun"];
	        this.conversation = source["conversation"];
	        this.multiZip = source["multiZip"];
	        this.allowInline = source["allowInline"];
	        this.architectureAuthorized = source["architectureAuthorized"];
	        this.goal = source["goal"];
	        this.goalLock = source["goalLock"];
	        this.research = source["research"];
	        this.outDir = source["outDir"];
	        this.repoRoot = source["repoRoot"];
	        this.sourcePaths = source["sourcePaths"];
	        this.sourceAs = source["sourceAs"];
	        this.files = source["files"];
	        this.inlineFiles = source["inlineFiles"];
	        this.timeoutSeconds = source["timeoutSeconds"];
	        this.cooldownSeconds = source["cooldownSeconds"];
	        this.browser = this.convertValues(source["browser"], BrowserSpec);
	        this.requestedBy = source["requestedBy"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class JobDetail {
	    session?: string;
	    approval: string;
	    spec: JobRequest;
	    ended: boolean;
	    run?: record.Run;
	    receipt?: record.CodeReceipt;
	    finding?: record.Finding;
	    runError?: errs.Envelope;
	    target?: JobTarget;
	    waiting?: string;
	
	    static createFrom(source: any = {}) {
	        return new JobDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = source["session"];
	        this.approval = source["approval"];
	        this.spec = this.convertValues(source["spec"], JobRequest);
	        this.ended = source["ended"];
	        this.run = this.convertValues(source["run"], record.Run);
	        this.receipt = this.convertValues(source["receipt"], record.CodeReceipt);
	        this.finding = this.convertValues(source["finding"], record.Finding);
	        this.runError = this.convertValues(source["runError"], errs.Envelope);
	        this.target = this.convertValues(source["target"], JobTarget);
	        this.waiting = source["waiting"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Job {
	    id: string;
	    kind: string;
	    state: string;
	    requestedBy?: string;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	    error?: errs.Envelope;
	    detail?: JobDetail;
	
	    static createFrom(source: any = {}) {
	        return new Job(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.state = source["state"];
	        this.requestedBy = source["requestedBy"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	        this.error = this.convertValues(source["error"], errs.Envelope);
	        this.detail = this.convertValues(source["detail"], JobDetail);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	export class ModelInfo {
	    alias: string;
	    features: string[];
	
	    static createFrom(source: any = {}) {
	        return new ModelInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.alias = source["alias"];
	        this.features = source["features"];
	    }
	}
	export class PairingCode {
	    code: string;
	    // Go type: time
	    expiresAt: any;
	
	    static createFrom(source: any = {}) {
	        return new PairingCode(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.expiresAt = this.convertValues(source["expiresAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class RetryHold {
	    sent: string;
	    collectable: boolean;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new RetryHold(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sent = source["sent"];
	        this.collectable = source["collectable"];
	        this.message = source["message"];
	    }
	}
	export class SessionExtra {
	    listed: record.Listed;
	    total: number;
	
	    static createFrom(source: any = {}) {
	        return new SessionExtra(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.listed = this.convertValues(source["listed"], record.Listed);
	        this.total = source["total"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionSummary {
	    id: string;
	    site: string;
	    title: string;
	    // Go type: time
	    updatedAt: any;
	    extra?: SessionExtra;
	
	    static createFrom(source: any = {}) {
	        return new SessionSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.site = source["site"];
	        this.title = source["title"];
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	        this.extra = this.convertValues(source["extra"], SessionExtra);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionDetail {
	    session?: record.Run;
	    journal: record.JournalEntry[];
	    thread?: SessionSummary[];
	
	    static createFrom(source: any = {}) {
	        return new SessionDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = this.convertValues(source["session"], record.Run);
	        this.journal = this.convertValues(source["journal"], record.JournalEntry);
	        this.thread = this.convertValues(source["thread"], SessionSummary);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class SetupCheck {
	    id: string;
	    title: string;
	    status: string;
	    detail: string;
	    fix?: string;
	    required: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SetupCheck(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.status = source["status"];
	        this.detail = source["detail"];
	        this.fix = source["fix"];
	        this.required = source["required"];
	    }
	}
	export class SetupReport {
	    ok: boolean;
	    version: string;
	    checks: SetupCheck[];
	
	    static createFrom(source: any = {}) {
	        return new SetupReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.version = source["version"];
	        this.checks = this.convertValues(source["checks"], SetupCheck);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SiteCandidate {
	    selector: string;
	    matches: number;
	    score: number;
	    tag: string;
	    role?: string;
	    label?: string;
	    testId?: string;
	    text?: string;
	    override: string;
	
	    static createFrom(source: any = {}) {
	        return new SiteCandidate(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.selector = source["selector"];
	        this.matches = source["matches"];
	        this.score = source["score"];
	        this.tag = source["tag"];
	        this.role = source["role"];
	        this.label = source["label"];
	        this.testId = source["testId"];
	        this.text = source["text"];
	        this.override = source["override"];
	    }
	}
	export class SiteInfo {
	    id: string;
	    name: string;
	    address: string;
	    code: boolean;
	    builtin: boolean;
	    efforts?: string[];
	    tools?: string[];
	    temporary?: boolean;
	    places?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SiteInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.address = source["address"];
	        this.code = source["code"];
	        this.builtin = source["builtin"];
	        this.efforts = source["efforts"];
	        this.tools = source["tools"];
	        this.temporary = source["temporary"];
	        this.places = source["places"];
	    }
	}
	export class SiteInterstitial {
	    kind: string;
	    code?: string;
	    message?: string;
	    blocking: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SiteInterstitial(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.code = source["code"];
	        this.message = source["message"];
	        this.blocking = source["blocking"];
	    }
	}
	export class SiteLayout {
	    aspect: string;
	    layout?: string;
	    unknown?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SiteLayout(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.aspect = source["aspect"];
	        this.layout = source["layout"];
	        this.unknown = source["unknown"];
	    }
	}
	export class SiteLogin {
	    site: string;
	    name: string;
	    address: string;
	    state: string;
	    targetId?: string;
	
	    static createFrom(source: any = {}) {
	        return new SiteLogin(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.site = source["site"];
	        this.name = source["name"];
	        this.address = source["address"];
	        this.state = source["state"];
	        this.targetId = source["targetId"];
	    }
	}
	export class SiteStreamCheck {
	    status: string;
	    pattern?: string;
	    matched?: string;
	    seen?: string[];
	    detail: string;
	    override?: string;
	
	    static createFrom(source: any = {}) {
	        return new SiteStreamCheck(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.status = source["status"];
	        this.pattern = source["pattern"];
	        this.matched = source["matched"];
	        this.seen = source["seen"];
	        this.detail = source["detail"];
	        this.override = source["override"];
	    }
	}
	export class SiteRoleCheck {
	    role: string;
	    status: string;
	    selectors: string[];
	    matched: number;
	    matchedSelector?: string;
	    count?: number;
	    invalid?: string[];
	    note?: string;
	    candidates?: SiteCandidate[];
	    blocks?: string;
	
	    static createFrom(source: any = {}) {
	        return new SiteRoleCheck(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.role = source["role"];
	        this.status = source["status"];
	        this.selectors = source["selectors"];
	        this.matched = source["matched"];
	        this.matchedSelector = source["matchedSelector"];
	        this.count = source["count"];
	        this.invalid = source["invalid"];
	        this.note = source["note"];
	        this.candidates = this.convertValues(source["candidates"], SiteCandidate);
	        this.blocks = source["blocks"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SiteReport {
	    site: string;
	    name: string;
	    ok: boolean;
	    targetId?: string;
	    opened?: boolean;
	    url?: string;
	    loggedIn: boolean;
	    login?: string;
	    interstitial?: SiteInterstitial;
	    roles?: SiteRoleCheck[];
	    stream?: SiteStreamCheck;
	    layouts?: SiteLayout[];
	    problems?: string[];
	    error?: errs.Envelope;
	
	    static createFrom(source: any = {}) {
	        return new SiteReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.site = source["site"];
	        this.name = source["name"];
	        this.ok = source["ok"];
	        this.targetId = source["targetId"];
	        this.opened = source["opened"];
	        this.url = source["url"];
	        this.loggedIn = source["loggedIn"];
	        this.login = source["login"];
	        this.interstitial = this.convertValues(source["interstitial"], SiteInterstitial);
	        this.roles = this.convertValues(source["roles"], SiteRoleCheck);
	        this.stream = this.convertValues(source["stream"], SiteStreamCheck);
	        this.layouts = this.convertValues(source["layouts"], SiteLayout);
	        this.problems = source["problems"];
	        this.error = this.convertValues(source["error"], errs.Envelope);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class SitesReport {
	    ok: boolean;
	    sites: SiteReport[];
	
	    static createFrom(source: any = {}) {
	        return new SitesReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.sites = this.convertValues(source["sites"], SiteReport);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Template {
	    name: string;
	    description?: string;
	    body: string;
	    variables: string[];
	    builtIn: boolean;
	    // Go type: time
	    updatedAt: any;
	
	    static createFrom(source: any = {}) {
	        return new Template(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.body = source["body"];
	        this.variables = source["variables"];
	        this.builtIn = source["builtIn"];
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Welcome {
	    show: boolean;
	    used: boolean;
	    loggedIn: boolean;
	    dismissed: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Welcome(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.show = source["show"];
	        this.used = source["used"];
	        this.loggedIn = source["loggedIn"];
	        this.dismissed = source["dismissed"];
	    }
	}

}

export namespace version {
	
	export class Info {
	    version: string;
	    commit?: string;
	    go: string;
	    os: string;
	    arch: string;
	
	    static createFrom(source: any = {}) {
	        return new Info(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.commit = source["commit"];
	        this.go = source["go"];
	        this.os = source["os"];
	        this.arch = source["arch"];
	    }
	}

}

