// Healthwheel console: a little script where it helps. Every page works without it.
"use strict";

// Search as you type: the roster's rows are fetched again (the same URL with part=rows) a moment after typing stops.
function liveSearch(form) {
  const target = document.getElementById(form.dataset.liveSearch);
  const input = form.querySelector("input[type=search]");
  const sort = form.querySelector("select");
  if (!target || !input) return;
  let timer = null;
  let controller = null;
  const refresh = () => {
    const parameters = new URLSearchParams(new FormData(form));
    parameters.set("part", "rows");
    if (controller) controller.abort();
    controller = new AbortController();
    fetch(form.action + "?" + parameters.toString(), { signal: controller.signal, credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => {
        target.innerHTML = html;
        parameters.delete("part");
        history.replaceState(null, "", form.action + "?" + parameters.toString());
      })
      .catch(() => {});
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 200);
  });
  if (sort) sort.addEventListener("change", refresh);
}

// The wheel's compare date: the picture changes as soon as a date is picked.
function compareDate(form) {
  const wheel = document.getElementById(form.dataset.compare);
  const input = form.querySelector("input[type=date]");
  if (!wheel || !input) return;
  input.addEventListener("change", () => {
    const base = wheel.dataset.base;
    wheel.src = input.value ? base + "?compare=" + encodeURIComponent(input.value) : base;
    const url = new URL(location.href);
    if (input.value) url.searchParams.set("compare", input.value);
    else url.searchParams.delete("compare");
    history.replaceState(null, "", url.toString());
  });
}

// Forms that destroy something ask once more.
function confirmSubmit(form) {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
}

// Uploads show their progress: the form is sent by script, and the page the server answers with is shown after.
function uploadWithProgress(form) {
  const bar = form.querySelector("progress");
  const status = form.querySelector(".upload-status");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const request = new XMLHttpRequest();
    request.open("POST", form.action);
    request.upload.addEventListener("progress", (progress) => {
      if (!progress.lengthComputable) return;
      bar.hidden = false;
      bar.value = Math.round((progress.loaded / progress.total) * 100);
      status.textContent = bar.value + " %";
    });
    request.addEventListener("load", () => {
      if (request.status < 400) {
        location.assign(request.responseURL || location.href);
        return;
      }
      const page = new DOMParser().parseFromString(request.responseText, "text/html");
      const heading = page.querySelector("h1");
      const detail = page.querySelector(".error-page p:not(.status-code)");
      // A refused file names its reason in the page's list of fields; any other refusal, in its detail.
      const fields = Array.from(page.querySelectorAll(".error-page .field-errors li"), (item) => item.textContent);
      const reason = fields.length > 0 ? fields.join("; ") : detail && detail.textContent;
      status.textContent = [heading && heading.textContent, reason].filter(Boolean).join(": ");
      status.classList.add("field-error");
    });
    request.addEventListener("error", () => {
      status.textContent = form.dataset.failed || "Upload failed";
    });
    bar.hidden = false;
    bar.value = 0;
    status.classList.remove("field-error");
    request.send(new FormData(form));
  });
}

// A delivery on its way: its status is asked for again every two seconds until it is sent or failed.
function refreshWhilePending(element) {
  const url = element.dataset.refresh;
  const tick = () => {
    fetch(url, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
      .then((html) => {
        element.innerHTML = html;
        if (element.querySelector(".badge-delivery-queued, .badge-delivery-sending")) setTimeout(tick, 2000);
      })
      .catch(() => {});
  };
  setTimeout(tick, 2000);
}

// The theme editor's wheel is drawn again in the colours picked, as they are picked.
function themePreview(form) {
  const picture = document.getElementById(form.dataset.themePreview);
  if (!picture) return;
  let timer = null;
  const redraw = () => {
    const parameters = new URLSearchParams();
    form.querySelectorAll("input[type=color]").forEach((input) => parameters.set(input.name, input.value.replace("#", "")));
    picture.src = picture.dataset.base + "?" + parameters.toString();
  };
  form.querySelectorAll("input[type=color]").forEach((input) =>
    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(redraw, 150);
    })
  );
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form[data-theme-preview]").forEach(themePreview);
  document.querySelectorAll("[data-refresh]").forEach(refreshWhilePending);
  document.querySelectorAll("form[data-upload]").forEach(uploadWithProgress);
  document.querySelectorAll("form[data-live-search]").forEach(liveSearch);
  document.querySelectorAll("form[data-compare]").forEach(compareDate);
  document.querySelectorAll("form[data-confirm]").forEach(confirmSubmit);
  const summary = document.getElementById("error-summary");
  if (summary) summary.focus();
});
