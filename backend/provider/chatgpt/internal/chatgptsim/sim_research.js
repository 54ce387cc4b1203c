// Simulated Deep Research (sim_research.go; the providers reference,
// "Tools" → Deep Research): an answer whose metadata.chatgpt_sdk names
// "Deep Research App_start" is followed by reading the conversation again:
// the plan (its steps, the countdown, a "Start" that takes trusted clicks
// only), the research's stage and sources, then the report in
// iframe[title="internal://deep-research"] from the sandbox host, which
// nests it in a second frame. The report never enters the turn's text.
// research_stub shows the plan in such a frame too, beside a "Called tool"
// stub.
window.ChatGPTResearch = function (api) {
  'use strict';
  const { h } = Sim;
  const HOST = 'https://connector_openai_deep_research.web-sandbox.oaiusercontent.com';
  const frame = (mid, view) => h('iframe', {
    title: 'internal://deep-research', width: '720', height: '900',
    src: HOST + '?app=chatgpt&conversation=' + encodeURIComponent(api.conversation()) + '&message=' + encodeURIComponent(mid) + (view ? '&view=' + view : ''),
    sandbox: 'allow-scripts allow-same-origin allow-forms',
  });
  const stateOf = (m) => {
    const sdk = (m && m.metadata && m.metadata.chatgpt_sdk) || null;
    if (!sdk || sdk.resource_name !== 'Deep Research App_start') return null;
    try { return JSON.parse(sdk.widget_state || '{}'); } catch (e) { return {}; }
  };
  async function follow(t, mid) {
    const panel = h('div', { class: 'deep-research-panel', 'data-testid': 'deep-research-status' });
    t.extras.appendChild(panel);
    let planFrame = null;
    let runningSince = 0;
    for (;;) {
      const r = await api.fetch('/backend-api/conversation/' + api.conversation());
      const m = r.ok ? ((await r.json()).mapping[mid] || {}).message : null;
      const st = stateOf(m);
      if (st) {
        if (st.plan_frame && !planFrame) {
          planFrame = frame(mid, 'plan');
          t.extras.append(h('div', { class: 'tool-stub' }, 'Called tool'), planFrame);
        }
        if (st.status === 'planning' && !st.plan) {
          panel.replaceChildren(h('p', { class: 'stage' }, 'Thinking about the research plan…'));
        } else if (st.status === 'planning') {
          panel.replaceChildren(h('h3', {}, 'Research plan'), h('ol', {}, ...(st.plan || []).map((s) => h('li', {}, s))),
            h('p', { class: 'countdown' }, st.countdown_seconds != null ? 'Starting research in ' + st.countdown_seconds + 's' : 'Review the research plan, then start.'),
            h('button', { type: 'button', class: 'btn', 'aria-label': 'Start research', onclick: (e) => {
              if (!e.isTrusted) return;
              api.fetch('/backend-api/deep_research/' + encodeURIComponent(mid) + '/start', { method: 'POST' });
            } }, 'Start'));
        } else if (st.status === 'running') {
          runningSince = runningSince || Date.now();
          // research_disconnect: the page stops hearing of the research.
          if (st.sim_drop_ms != null && Date.now() - runningSince >= st.sim_drop_ms) return;
          panel.replaceChildren(h('p', { class: 'stage' }, 'Researching… · ' + st.stage + ' · ' + st.sources + ' sources'));
        } else if (st.status === 'completed' && !st.report_message) {
          panel.replaceChildren(h('p', { class: 'stage' }, 'Research completed · preparing the report'));
        } else if (st.status === 'completed') {
          panel.remove();
          if (planFrame) planFrame.remove();
          t.extras.appendChild(frame(mid));
          return;
        }
      }
      await new Promise((done) => setTimeout(done, 250));
    }
  }
  return { stateOf, follow };
};
