// Follows and blocks as plain data: which buttons a profile shows for the viewer's ties to
// its player, and the ties after a press. No DOM, no network: social.js draws and asks.

/** The profile's buttons for a relation `{following, blocking}`: each `{action, method,
 * label}` (the request to send and the button's words). A blocked player is not followed. */
export function relationButtons(relation) {
  if (!relation) return [];
  const follow = relation.following
    ? { action: "follow", method: "DELETE", label: "social.unfollow" }
    : { action: "follow", method: "POST", label: "social.follow" };
  const block = relation.blocking
    ? { action: "block", method: "DELETE", label: "social.unblock" }
    : { action: "block", method: "POST", label: "social.block" };
  return relation.blocking ? [block] : [follow, block];
}

/** The relation after `button` was pressed on `relation`. */
export function afterPress(relation, button) {
  const on = button.method === "POST";
  if (button.action === "block") return { following: on ? false : relation.following, blocking: on };
  return { ...relation, following: on };
}
