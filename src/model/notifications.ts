/**
 * The changes a server announces (manifest `notifications`), decided once here: the capabilities, the runtime's
 * module list and package.json follow it.
 */

/** A list whose changes the server may announce. */
export type ListName = 'tools' | 'resources' | 'prompts';

export interface NotificationsModel {
  readonly listChanged: readonly ListName[];
  readonly resourceUpdates: boolean;
}

/** Whether the server announces any change (and so ships notify.gen.ts). */
export const announcesChanges = (n: NotificationsModel): boolean => n.listChanged.length > 0 || n.resourceUpdates;
