// The one client script of a published site (served by site-assets.ts at `~assets/site-<hash>.js`, loaded
// in <head> so the reader's theme is set before the page paints). Pages read fully without it; it adds:
// the theme switch (kept in localStorage), search opened with `/` or Ctrl-K with results as one types
// (the search page's own HTML, fetched and its result list shown under the box), tabs that switch (the
// ARIA tabs pattern: arrows, Home, End), copy buttons on code, images zoomed in a dialog, footnotes
// (annotations) opened in a popover beside their reference, action buttons opening the search, the current
// section marked in "on this page", and the previous and next pages on the left and right arrow keys. Plain ES2020, no dependency: about 3 kB compressed.
export const SITE_SCRIPT = String.raw`(function () {
  'use strict';
  var root = document.documentElement;
  root.classList.add('js');
  var stored = null;
  try { stored = localStorage.getItem('site-theme'); } catch (e) {}
  if (stored === 'light' || stored === 'dark') root.setAttribute('data-theme', stored);

  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  function themeSwitch() {
    var button = document.getElementById('theme-toggle');
    if (!button) return;
    var isDark = function () {
      var chosen = root.getAttribute('data-theme');
      return chosen ? chosen === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
    };
    var show = function () {
      var dark = isDark();
      button.setAttribute('aria-pressed', String(dark));
      button.textContent = dark ? '\u263E' : '\u2600';
    };
    button.addEventListener('click', function () {
      var next = isDark() ? 'light' : 'dark';
      root.setAttribute('data-theme', next);
      try { localStorage.setItem('site-theme', next); } catch (e) {}
      show();
    });
    show();
  }

  function search() {
    var form = document.querySelector('form.search');
    var input = document.getElementById('site-search');
    if (!form || !input) return;
    var panel = document.createElement('div');
    panel.id = 'search-results';
    panel.hidden = true;
    panel.setAttribute('role', 'region');
    panel.setAttribute('aria-label', 'Search results');
    panel.setAttribute('aria-live', 'polite');
    form.appendChild(panel);
    input.setAttribute('aria-controls', 'search-results');
    var timer = 0;
    var asked = 0;
    var close = function () { panel.hidden = true; };
    var run = function () {
      var query = input.value.trim();
      var ticket = ++asked;
      if (!query) return close();
      fetch(form.action + '?q=' + encodeURIComponent(query), { headers: { Accept: 'text/html' } })
        .then(function (res) { return res.text(); })
        .then(function (html) {
          if (ticket !== asked) return;
          var found = new DOMParser().parseFromString(html, 'text/html').querySelector('main article');
          panel.replaceChildren();
          if (found) {
            var status = found.querySelector('[role=status], p');
            var list = found.querySelector('.results');
            if (status) panel.appendChild(document.importNode(status, true));
            if (list) panel.appendChild(document.importNode(list, true));
          }
          panel.hidden = false;
        })
        .catch(function () {});
    };
    input.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(run, 120); });
    input.addEventListener('keydown', function (event) {
      if (event.key === 'Escape') { close(); input.blur(); }
      if (event.key === 'ArrowDown' && !panel.hidden) {
        var first = panel.querySelector('a');
        if (first) { event.preventDefault(); first.focus(); }
      }
    });
    panel.addEventListener('keydown', function (event) {
      var links = Array.prototype.slice.call(panel.querySelectorAll('a'));
      var at = links.indexOf(document.activeElement);
      if (event.key === 'ArrowDown' && at >= 0 && at < links.length - 1) { event.preventDefault(); links[at + 1].focus(); }
      if (event.key === 'ArrowUp' && at >= 0) { event.preventDefault(); (at === 0 ? input : links[at - 1]).focus(); }
      if (event.key === 'Escape') { close(); input.focus(); }
    });
    document.addEventListener('click', function (event) { if (!form.contains(event.target)) close(); });
    document.addEventListener('keydown', function (event) {
      var open = (event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey) || ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k');
      if (!open || (event.key === '/' && typing(event.target))) return;
      event.preventDefault();
      input.focus();
      input.select();
    });
  }

  function tabs() {
    document.querySelectorAll('.tabs').forEach(function (group) {
      var buttons = Array.prototype.slice.call(group.querySelectorAll(':scope > .tablist > [role=tab]'));
      var select = function (chosen, focus) {
        buttons.forEach(function (button) {
          var on = button === chosen;
          button.setAttribute('aria-selected', String(on));
          button.tabIndex = on ? 0 : -1;
          var panel = document.getElementById(button.getAttribute('aria-controls'));
          if (panel) panel.hidden = !on;
        });
        if (focus) chosen.focus();
      };
      buttons.forEach(function (button, i) {
        button.addEventListener('click', function () { select(button, false); });
        button.addEventListener('keydown', function (event) {
          var to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: buttons.length - 1 }[event.key];
          if (to === undefined) return;
          event.preventDefault();
          select(buttons[(to + buttons.length) % buttons.length], true);
        });
      });
      if (buttons.length > 0) select(buttons[0], false);
      group.classList.add('ready');
    });
  }

  function copyButtons() {
    document.querySelectorAll('.code-block .copy').forEach(function (button) {
      button.addEventListener('click', function () {
        var code = button.closest('.code-block').querySelector('pre code');
        var text = Array.prototype.map.call(code.querySelectorAll('.line'), function (line) { return line.textContent; }).join('\n') || code.textContent;
        navigator.clipboard.writeText(text).then(function () {
          button.textContent = 'Copied';
          setTimeout(function () { button.textContent = 'Copy'; }, 1500);
        });
      });
    });
  }

  function zoom() {
    document.querySelectorAll('a.zoom').forEach(function (link) {
      link.addEventListener('click', function (event) {
        if (event.ctrlKey || event.metaKey || event.shiftKey) return;
        event.preventDefault();
        var image = link.querySelector('img');
        var dialog = document.createElement('dialog');
        dialog.className = 'zoomed';
        dialog.setAttribute('aria-label', image.alt || 'Image');
        var big = document.createElement('img');
        big.src = link.href;
        big.alt = image.alt;
        dialog.appendChild(big);
        dialog.addEventListener('click', function () { dialog.close(); });
        dialog.addEventListener('close', function () { dialog.remove(); link.focus(); });
        document.body.appendChild(dialog);
        dialog.showModal();
      });
    });
  }

  // A footnote reference (an annotation) opens its note in a popover right after it (so Tab reaches the
  // note's links next): Enter or a click keeps it open (aria-expanded), hovering shows it; Escape closes it
  // and gives the focus back. With scripts off the reference is a link to the note at the end of the page.
  function footnotes() {
    var open = null;
    var close = function (refocus) {
      if (!open) return;
      open.ref.setAttribute('aria-expanded', 'false');
      open.ref.removeAttribute('aria-controls');
      open.popover.remove();
      if (refocus) open.ref.focus();
      open = null;
    };
    document.querySelectorAll('a[data-footnote-ref]').forEach(function (ref, i) {
      var note = document.getElementById(decodeURIComponent(ref.hash.slice(1)));
      if (!note) return;
      var holder = ref.parentNode;
      ref.setAttribute('aria-expanded', 'false');
      var show = function (pinned) {
        if (open && open.ref === ref) { open.pinned = open.pinned || pinned; return; }
        close(false);
        var popover = document.createElement('span');
        popover.className = 'footnote-popover';
        popover.id = 'note-popover-' + (i + 1);
        popover.setAttribute('role', 'note');
        popover.setAttribute('aria-label', ref.getAttribute('aria-label') || 'Note');
        var body = note.cloneNode(true);
        body.querySelectorAll('[data-footnote-backref]').forEach(function (back) { back.remove(); });
        body.querySelectorAll('[id]').forEach(function (e) { e.removeAttribute('id'); });
        while (body.firstChild) popover.appendChild(body.firstChild);
        holder.insertBefore(popover, ref.nextSibling);
        var right = popover.getBoundingClientRect().right - (document.documentElement.clientWidth - 8);
        if (right > 0) popover.style.left = -right + 'px';
        ref.setAttribute('aria-expanded', 'true');
        ref.setAttribute('aria-controls', popover.id);
        open = { ref: ref, popover: popover, pinned: pinned };
      };
      ref.addEventListener('click', function (event) {
        event.preventDefault();
        if (open && open.ref === ref && open.pinned) close(false);
        else show(true);
      });
      ref.addEventListener('mouseenter', function () { show(false); });
      holder.addEventListener('mouseleave', function () { if (open && open.ref === ref && !open.pinned) close(false); });
    });
    document.addEventListener('keydown', function (event) {
      if (event.key === 'Escape' && open) close(open.popover.contains(document.activeElement) || document.activeElement === open.ref);
    });
    document.addEventListener('click', function (event) { if (open && !open.ref.parentNode.contains(event.target)) close(false); });
    document.addEventListener('focusin', function (event) { if (open && !open.ref.parentNode.contains(event.target)) close(false); });
  }

  // An action button (search, ask) opens the search box with its query.
  function actionButtons() {
    var input = document.getElementById('site-search');
    document.querySelectorAll('button[data-action]').forEach(function (button) {
      button.addEventListener('click', function () {
        if (!input) return;
        input.value = button.getAttribute('data-query') || '';
        input.focus();
        input.dispatchEvent(new Event('input'));
      });
    });
  }

  function outline() {
    var links = Array.prototype.slice.call(document.querySelectorAll('.outline a[href^="#"]'));
    if (links.length === 0 || !('IntersectionObserver' in window)) return;
    var byId = {};
    links.forEach(function (link) { byId[decodeURIComponent(link.hash.slice(1))] = link; });
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        links.forEach(function (link) { link.removeAttribute('aria-current'); });
        var link = byId[entry.target.id];
        if (link) link.setAttribute('aria-current', 'location');
      });
    }, { rootMargin: '0px 0px -70% 0px' });
    Object.keys(byId).forEach(function (id) { var heading = document.getElementById(id); if (heading) observer.observe(heading); });
  }

  function pager() {
    document.addEventListener('keydown', function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey || typing(event.target) || event.defaultPrevented) return;
      if (event.target.closest && event.target.closest('pre, [role=tablist], dialog')) return;
      var rel = { ArrowLeft: 'prev', ArrowRight: 'next' }[event.key];
      var link = rel && document.querySelector('nav.pager a[rel=' + rel + ']');
      if (link) location.href = link.href;
    });
  }

  function anchors() {
    document.querySelectorAll('a.anchor').forEach(function (anchor) {
      anchor.addEventListener('click', function () {
        if (navigator.clipboard) navigator.clipboard.writeText(anchor.href).catch(function () {});
      });
    });
  }

  var start = function () { themeSwitch(); search(); tabs(); copyButtons(); zoom(); footnotes(); actionButtons(); outline(); pager(); anchors(); };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
`;
