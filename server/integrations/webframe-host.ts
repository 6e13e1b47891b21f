// The script a published page with ContentKit webframes loads (contentkit-html.ts): it plays the part of
// GitBook's renderer for each sandboxed frame, which cannot reach the page itself. When a frame says it is
// ready (`@webframe.ready`), it is posted its data (`{ state }`, from `data-contentkit-state`); when it asks to
// be resized (`@webframe.resize`), its size follows. Only messages from the page's own webframes are heard.
import type { RequestHandler } from 'express';

export const WEBFRAME_HOST_PATH = '/integrations/~contentkit/webframe-host.js';

const script = `(() => {
  const frameOf = (source) => [...document.querySelectorAll('iframe[data-contentkit-state]')].find((f) => f.contentWindow === source);
  window.addEventListener('message', (event) => {
    const frame = frameOf(event.source);
    const action = frame && event.data && event.data.action;
    if (!action || typeof action.action !== 'string') return;
    if (action.action === '@webframe.ready') {
      let state = {};
      try { state = JSON.parse(frame.getAttribute('data-contentkit-state') || '{}'); } catch {}
      frame.contentWindow.postMessage({ state }, '*');
    } else if (action.action === '@webframe.resize' && action.size) {
      const { aspectRatio, height } = action.size;
      if (typeof aspectRatio === 'number' && aspectRatio > 0) frame.style.aspectRatio = String(aspectRatio);
      if (typeof height === 'number' && height > 0 && height < 10000) frame.style.height = height + 'px';
    }
  });
})();
`;

/** Serves the webframe host script (the same for every page: cached a day). */
export const webframeHostHandler: RequestHandler = (_req, res) => {
  res.setHeader('Content-Type', 'application/javascript; charset=utf-8');
  res.setHeader('Cache-Control', 'public, max-age=86400');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.send(script);
};
