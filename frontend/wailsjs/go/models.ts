export namespace app {
	
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
	
	    static createFrom(source: any = {}) {
	        return new RunSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.answerTimeout = source["answerTimeout"];
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

export namespace doctor {
	
	export class Check {
	    id: string;
	    title: string;
	    status: string;
	    detail: string;
	    fix?: string;
	    required: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Check(source);
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
	export class Report {
	    ok: boolean;
	    version: string;
	    checks: Check[];
	
	    static createFrom(source: any = {}) {
	        return new Report(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.version = source["version"];
	        this.checks = this.convertValues(source["checks"], Check);
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
	
	export class Envelope {
	    stage: string;
	    code: string;
	    message: string;
	    retryHint?: string;
	    retryable: boolean;
	    evidence?: {[key: string]: string};
	
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

