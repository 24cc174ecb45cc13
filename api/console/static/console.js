// railbird console: keyboard review on the queue and live flags over server-sent events.
// No framework and no build step; the pages work without it (links and forms).
"use strict";

(function () {
  const table = document.getElementById("queue");
  if (!table) return;
  const body = table.tBodies[0];
  const form = document.getElementById("review-form");
  const canReview = table.dataset.canReview === "yes";
  const live = document.createElement("p");
  live.setAttribute("role", "status");
  live.className = "visually-hidden";
  live.id = "live-status";
  table.after(live);
  let current = 0;

  function rows() { return Array.from(body.rows); }

  function select(index) {
    const all = rows();
    if (!all.length) return;
    current = Math.max(0, Math.min(index, all.length - 1));
    all.forEach((row, i) => row.setAttribute("aria-selected", i === current ? "true" : "false"));
    all[current].focus();
  }

  function review(decision) {
    const row = rows()[current];
    if (!row || !form) return;
    form.action = "/console/flags/" + encodeURIComponent(row.dataset.flagId) + "/review";
    form.elements.version.value = row.dataset.version;
    form.elements.decision.value = decision;
    if (decision === "dismiss") {
      form.hidden = false;
      form.elements.note.value = "";
      form.elements.note.focus();
      return;
    }
    form.elements.note.value = "";
    form.submit();
  }

  document.addEventListener("keydown", (event) => {
    const tag = (event.target.tagName || "").toLowerCase();
    if (["input", "select", "textarea", "button"].includes(tag)) {
      if (event.key === "Escape" && form && !form.hidden) { form.hidden = true; select(current); }
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    switch (event.key) {
      case "j": select(current + 1); break;
      case "k": select(current - 1); break;
      case "Enter": {
        const link = rows()[current] && rows()[current].querySelector("a");
        if (link) link.click();
        break;
      }
      case "c": if (canReview) review("confirm"); break;
      case "d": if (canReview) review("dismiss"); break;
      case "e": if (canReview) review("escalate"); break;
      default: return;
    }
    event.preventDefault();
  });

  if (form) {
    document.getElementById("review-cancel").addEventListener("click", () => {
      form.hidden = true;
      select(current);
    });
  }

  rows().forEach((row, i) => row.addEventListener("click", () => { current = i; }));
  select(0);

  if (window.EventSource && table.dataset.stream) {
    const source = new EventSource(table.dataset.stream);
    source.addEventListener("flag", (event) => {
      const flag = JSON.parse(event.data);
      if (body.querySelector('tr[data-flag-id="' + CSS.escape(flag.flag_id) + '"]')) return;
      const holder = document.createElement("tbody");
      holder.innerHTML = flag.html;  // rendered and escaped by the server's template
      const row = holder.rows[0];
      row.classList.add("new");
      body.appendChild(row);
      const empty = document.getElementById("empty");
      if (empty) empty.remove();
      live.textContent = "New flag: " + row.cells[2].textContent + ", " + row.cells[0].textContent;
      if (rows().length === 1) select(0);
    });
  }
})();
