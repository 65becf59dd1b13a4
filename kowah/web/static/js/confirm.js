// Asking before something that cannot be undone (a new deal while one is in progress, leaving a
// table): a modal <dialog>, answered with a button or Escape.

export function ask(text, yes) {
  const dialog = document.querySelector("[data-confirm]");
  dialog.querySelector("[data-confirm-text]").textContent = text;
  dialog.querySelector("[data-confirm-yes]").textContent = yes;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.showModal();
    dialog.querySelector("[data-confirm-yes]").focus();
  });
}
