/**
 * The service's validation messages in the editor's words (nodes/shared/transport/serviceWording.ts), for
 * messages the node's own checks stop before they are sent, so no request can bring them back.
 * Messages the service does send are checked through the engine (CtsTask.test.ts, editorChoices.test.ts).
 */
import { withEditorLabels } from '../../../nodes/shared/transport/errors';

describe('service validation messages in the editor\'s words', () => {
	it.each([
		['title must be longer than or equal to 1 characters', 'Title must not be empty'],
		['priority must not be greater than 9', 'Priority must be between 0 and 9'],
		['priority must not be less than 0', 'Priority must be between 0 and 9'],
		['priority must not be greater than 9; priority must not be less than 0', 'Priority must be between 0 and 9'],
		['limit must not be less than 1', 'Limit must be 1 or more'],
		['limit must be an integer number', 'Limit must be a whole number'],
		['taskListId must be longer than or equal to 1 characters', 'Task List ID must not be empty'],
		['due must be a valid ISO 8601 date string', 'Due must be a date and time (ISO 8601)'],
		['descriptionContentType must be one of the following values: text/plain, text/html', 'Description Format must be one of: text/plain, text/html'],
		['timeZone must be null when showWithoutTime is true (all-day events have no time zone)', 'Time Zone must be null when "All Day" is true (all-day events have no time zone)'],
		['end must be greater than start', 'End must be greater than start'],
	])('%s → %s', (service, editor) => {
		expect(withEditorLabels(service)).toBe(editor);
	});
});
