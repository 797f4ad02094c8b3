import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

export const FLOOR_NODE_TYPE = 'bench.requestFloor';

/**
 * The engine's floor for one request per item: a minimal programmatic node that reads each
 * item's title from its Title parameter (an expression, as in the other variants) and sends the
 * create through n8n's own request helper (`httpRequestWithAuthentication`, the helper the
 * declarative RoutingNode uses), all items at once. It is what a programmatic node costs that
 * does nothing else: whatever the CTS node or the HTTP Request node cost above it is theirs.
 */
export class RequestFloorNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Request Floor',
		name: 'requestFloor',
		group: ['transform'],
		version: 1,
		description: 'Sends one create per item through n8n\'s request helper',
		defaults: { name: 'Request Floor' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'ctsApi', required: true }],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Title', name: 'title', type: 'string', default: '' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const url = this.getNodeParameter('url', 0) as string;
		const answers = await Promise.all(
			items.map(
				async (_item, index) =>
					(await this.helpers.httpRequestWithAuthentication.call(this, 'ctsApi', {
						method: 'POST',
						url,
						headers: { Accept: 'application/json' },
						body: { title: this.getNodeParameter('title', index) as string },
						json: true,
					})) as IDataObject,
			),
		);
		return [answers.map((answer, index) => ({ json: { id: (answer.data as IDataObject).id }, pairedItem: { item: index } }))];
	}
}
