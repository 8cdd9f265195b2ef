/**
 * Name prefixes that say a tool changes or sends something: the design lint
 * (review/) requires such a tool to be destructive, and import names and
 * judges drafted operations by them.
 */
export const mutatingVerbs = [
  'delete_',
  'remove_',
  'drop_',
  'destroy_',
  'purge_',
  'erase_',
  'wipe_',
  'send_',
  'publish_',
  'post_',
  'pay_',
  'transfer_',
  'update_',
  'overwrite_',
  'revoke_',
  'cancel_',
  'reset_',
  'write_',
  'move_',
  'rename_',
  'archive_',
  'deploy_',
  'kill_',
  'terminate_',
  'shutdown_',
];
