/** The service's field names and validation phrases in the words of the editor (its field labels, its own checks). */

/**
 * The service's field names as the editor labels them. Identifiers are replaced wherever they
 * appear; plain words only where a message starts with the field ("title must be …"), since
 * they are ordinary words elsewhere.
 */
const FIELD_LABELS: Record<string, string> = {
	accountId: 'Account',
	calendarId: 'Calendar',
	calendarIds: 'Calendars',
	taskListId: 'Task List ID',
	timeZone: 'Time Zone',
	recurrenceIdTimeZone: 'Recurrence ID Time Zone',
	showWithoutTime: 'All Day',
	recurrenceId: 'Recurrence ID',
	masterEventId: 'Master Event ID',
	seriesUpdateMode: 'Series Mode',
	recurrenceRules: 'Recurrence',
	useDefaultAlerts: 'Use Default Alerts',
	estimatedDuration: 'Estimated Duration',
	descriptionContentType: 'Description Format',
	freeBusyStatus: 'Free/Busy',
	updatedAfter: 'Updated After',
	occurrenceStart: 'Occurrence Start',
	previousId: 'Previous Task',
	parentId: 'Parent Task',
	relatedTo: 'Parent Task',
	notifyOrganizer: 'Notify Organizer',
};
const LEADING_LABELS: Record<string, string> = {
	title: 'Title',
	description: 'Description',
	due: 'Due',
	priority: 'Priority',
	progress: 'Progress',
	start: 'Start',
	end: 'End',
	duration: 'Duration',
	limit: 'Limit',
	tags: 'Tags',
	comment: 'Comment',
	id: 'ID',
};

/** The label the editor shows for one of the service's field names (the name itself when it has none). */
export function fieldLabel(name: string): string {
	return FIELD_LABELS[name] ?? LEADING_LABELS[name] ?? name;
}

/** Ranges the interface gives for numeric fields, so their two bounds read as one rule. */
const FIELD_RANGES: Record<string, [number, number]> = { priority: [0, 9] };

/** The service's validation phrases (`title must be longer than or equal to 1 characters`) as the editor words its own checks. */
function inEditorPhrases(entry: string): string {
	return entry
		.replace(/^(\S+) must not be (?:greater|less) than -?\d+$/, (whole, field: string) =>
			FIELD_RANGES[field] ? `${field} must be between ${FIELD_RANGES[field][0]} and ${FIELD_RANGES[field][1]}` : whole,
		)
		.replace(/ must not be greater than (-?\d+)$/, ' must be $1 or less')
		.replace(/ must not be less than (-?\d+)$/, ' must be $1 or more')
		.replace(/ must be longer than or equal to 1 characters$/, ' must not be empty')
		.replace(/ must be longer than or equal to (\d+) characters$/, ' must be at least $1 characters long')
		.replace(/ must be shorter than or equal to (\d+) characters$/, ' must be at most $1 characters long')
		.replace(/ should not be empty$/, ' must not be empty')
		.replace(/ must be an integer number$/, ' must be a whole number')
		.replace(/ must be a valid ISO 8601 date string$/, ' must be a date and time (ISO 8601)')
		.replace(/ must be one of the following values: /, ' must be one of: ');
}

/**
 * A service message in the editor's words: validation phrases as the editor words them, the
 * field an entry is about as its label ("Title must not be empty"), other field names as quoted
 * labels. Entries the rewording makes equal (a range's two bounds) are shown once.
 */
export function withEditorLabels(message: string): string {
	const entries = message.split('; ').map((entry) => {
		let text = inEditorPhrases(entry);
		const subject = /^([a-z]+(?:[A-Z][a-z]*)*s?)(?= (?:must|should|is|are|does|do) )/.exec(text)?.[1];
		const label = subject ? (FIELD_LABELS[subject] ?? LEADING_LABELS[subject]) : undefined;
		if (label) text = `${label}${text.slice(subject!.length)}`;
		return text.replace(/\b[a-z]+(?:[A-Z][a-z]*)+s?\b/g, (word) => (FIELD_LABELS[word] ? `"${FIELD_LABELS[word]}"` : word));
	});
	return [...new Set(entries)].join('; ');
}

