/**
 * Test hooks of question context and presets, reached as `service.contextControls`.
 * @module
 */
import { CONTEXT_FILES } from './files.js';
import type { MockEnv } from '../../env.js';

/**
 * Whether file uploads are turned off, for every organization or for some: an organization setting
 * of the service (403 `uploads_disabled`). Like the keys, it outlives `service.reset()`.
 * @example
 * ```ts
 * const uploads = new UploadSwitch(['org-2']); // off for org-2 only
 * uploads.set(true);                           // now off for every organization
 * uploads.disabled('org-1');                   // true
 * ```
 */
export class UploadSwitch {
  private all = false;
  private readonly organizations = new Set<string>();

  constructor(setting: boolean | readonly string[] = false) {
    if (typeof setting === 'boolean') this.all = setting;
    else for (const id of setting) this.organizations.add(id);
  }

  /** Turns uploads off (`true`) or on for one organization, or, with no id, for every organization. */
  set(disabled: boolean, organizationId?: string): void {
    if (organizationId !== undefined) {
      if (disabled) this.organizations.add(organizationId);
      else this.organizations.delete(organizationId);
      return;
    }
    this.all = disabled;
    this.organizations.clear();
  }

  /** Whether the organization's uploads are off. */
  disabled(organizationId: string): boolean {
    return this.all || this.organizations.has(organizationId);
  }
}

/**
 * Steers the mock's context files and presets from a test.
 * @example
 * ```ts
 * const controls = service.contextControls;
 * controls.failFile(fileId, 'The PDF is encrypted'); // fails when its processing ends (FILE_PROCESSING_MS)
 * controls.setUploadsDisabled(true);                 // every upload answers 403 uploads_disabled
 * controls.setQuestionPreset(questionId, presetId);  // the question's own preset
 * ```
 */
export class ContextControls {
  constructor(
    private readonly env: MockEnv,
    private readonly uploads: UploadSwitch,
  ) {}

  /** Makes a `processing` file (of a question or a preset) end `failed`, with `reason`, when its processing ends. */
  failFile(fileId: string, reason = 'The file could not be read'): void {
    const file = this.env.store.collection(CONTEXT_FILES).get(fileId);
    if (file?.status !== 'processing') throw new Error(`No processing context file ${fileId}`);
    file.failWith = reason;
  }

  /** Turns file uploads off (`true`) or back on, for one organization or (with no id) for all. */
  setUploadsDisabled(disabled: boolean, organizationId?: string): void {
    this.uploads.set(disabled, organizationId);
  }

  /**
   * Gives a question its own preset (or none, with `null`): its forecasts that name no `presetId`
   * use it before the caller's and the organization's defaults. In the service a question has one
   * when built from a template that holds a preset.
   */
  setQuestionPreset(questionId: string, presetId: string | null): void {
    const question = this.env.store.questions.get(questionId);
    if (!question) throw new Error(`No question ${questionId}`);
    question.presetId = presetId;
  }
}
