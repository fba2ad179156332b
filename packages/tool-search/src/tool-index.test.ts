import type { HostToolDefinition } from '@toolhost/contract';
import { describe, expect, it } from 'vitest';
import { createToolIndex, DEVELOPER_VOCABULARY, ToolSearchError, type ToolSearchEntry } from './index.js';

/** A few tools of real servers (GitHub, filesystem, a browser, MongoDB, Notion), as they describe themselves. */
const TOOLS: ToolSearchEntry[] = [
  {
    name: 'update_pull_request_branch',
    serverName: 'github',
    toolName: 'update_pull_request_branch',
    description: 'Update a pull request branch with the latest changes from the base branch',
    inputSchema: { type: 'object', properties: { owner: { type: 'string' }, repo: { type: 'string' }, pull_number: { type: 'number' } } },
  },
  {
    name: 'create_pull_request',
    serverName: 'github',
    toolName: 'create_pull_request',
    description: 'Create a new pull request in a GitHub repository',
  },
  { name: 'create_branch', serverName: 'github', toolName: 'create_branch', description: 'Create a new branch in a GitHub repository' },
  { name: 'create_issue', serverName: 'github', toolName: 'create_issue', description: 'Create a new issue in a GitHub repository' },
  {
    name: 'list_issues',
    serverName: 'github',
    toolName: 'list_issues',
    description: 'List issues in a GitHub repository with filtering options',
  },
  {
    name: 'read_text_file',
    serverName: 'filesystem',
    toolName: 'read_text_file',
    description: 'Read the complete contents of a file from the file system as text.',
  },
  { name: 'move_file', serverName: 'filesystem', toolName: 'move_file', description: 'Move or rename files and directories.' },
  {
    name: 'getFileInfo',
    serverName: 'files-camel',
    toolName: 'getFileInfo',
    description: 'Retrieve detailed metadata about a file or directory: size, creation time, last modified time.',
  },
  {
    name: 'resolve-library-id',
    serverName: 'context7',
    toolName: 'resolve-library-id',
    description: 'Resolves a package name to a library ID.',
  },
  { name: 'browser_navigate', serverName: 'playwright', toolName: 'browser_navigate', description: 'Navigate to a URL' },
  {
    name: 'browser_take_screenshot',
    serverName: 'playwright',
    toolName: 'browser_take_screenshot',
    description: 'Take a screenshot of the current page.',
  },
  { name: 'browser_click', serverName: 'playwright', toolName: 'browser_click', description: 'Perform click on a web page' },
  {
    name: 'drop-database',
    serverName: 'mongodb',
    toolName: 'drop-database',
    description: 'Removes the specified database, deleting the associated data files',
  },
  { name: 'list-databases', serverName: 'mongodb', toolName: 'list-databases', description: 'List all databases for a MongoDB connection' },
  {
    name: 'API-retrieve-a-database',
    serverName: 'notion',
    toolName: 'API-retrieve-a-database',
    description: 'Notion | Retrieve a database',
  },
  { name: 'API-post-page', serverName: 'notion', toolName: 'API-post-page', description: 'Notion | Create a page' },
  { name: 'API-get-users', serverName: 'notion', toolName: 'API-get-users', description: 'Notion | List all users' },
];

const index = createToolIndex(TOOLS);
const top = (query: string, limit = 3): string[] => index.search({ query, limit }).map((result) => result.name);

describe('createToolIndex', () => {
  it('finds a tool by what people say rather than its name: "bump the PR branch"', () => {
    expect(index.search({ query: 'bump the PR branch', limit: 2 })[0]).toEqual({
      name: 'update_pull_request_branch',
      serverName: 'github',
      toolName: 'update_pull_request_branch',
      score: 1,
    });
  });

  it('splits snake_case, camelCase and kebab-case names into words, and stems them', () => {
    expect(top('file info', 1)).toEqual(['getFileInfo']);
    expect(top('databases dropping', 1)).toEqual(['drop-database']);
    expect(top('branches', 1)).toEqual(['create_branch']);
  });

  it('knows the developer vocabulary: repo, ticket, remove, rename, picture, PRs', () => {
    expect(top('open a ticket in the repo', 1)).toEqual(['create_issue']);
    expect(top('get rid of the staging db', 1)).toEqual(['drop-database']);
    expect(top('rename notes.txt to todo.txt', 1)).toEqual(['move_file']);
    expect(top('take a picture of the page', 1)).toEqual(['browser_take_screenshot']);
    expect(top('open new PRs', 1)).toEqual(['create_pull_request']);
  });

  it('counts an address or a file name as what it is, not as its words', () => {
    expect(top('go to https://example.com/pull/branch', 1)).toEqual(['browser_navigate']);
    expect(top("what's in package.json", 2)).toContain('read_text_file');
    expect(top("what's in package.json", 2)).not.toContain('resolve-library-id');
    expect(top("what's in the package", 1)).toEqual(['resolve-library-id']);
    expect(top('when was config.yaml last modified', 1)).toEqual(['getFileInfo']);
  });

  it("ranks the tools of a server the request names first: 'in notion'", () => {
    expect(top('retrieve a database', 2)).toEqual(expect.arrayContaining(['API-retrieve-a-database']));
    expect(top('show a database in notion', 1)).toEqual(['API-retrieve-a-database']);
    expect(top('show a mongo database', 1)).toEqual(['list-databases']);
  });

  it('does not let a word all tool names of a server share match every one of them', () => {
    // Notion's names all start with `API-`: "API" says nothing about which of them is meant.
    const withApi = createToolIndex([
      ...TOOLS,
      {
        name: 'list_network_requests',
        serverName: 'chrome',
        toolName: 'list_network_requests',
        description: 'Lists the API and other requests the page made.',
      },
    ]);
    expect(withApi.search({ query: 'which API requests did the page make', limit: 1 })[0]?.name).toBe('list_network_requests');
  });

  it('prefers tools that only read when the request is a question', () => {
    const tools: ToolSearchEntry[] = [
      {
        name: 'member_create',
        serverName: 'crm',
        toolName: 'member_create',
        description: 'Create team members',
        annotations: { readOnlyHint: false },
      },
      // No annotation: a name that starts with a verb that reads counts as reading.
      { name: 'lookup_member', serverName: 'crm', toolName: 'lookup_member', description: 'Lookup team members' },
    ];
    const crm = createToolIndex(tools);
    expect(crm.search({ query: 'team members', limit: 2 }).map((result) => result.name)).toEqual(['lookup_member', 'member_create']);
    expect(crm.search({ query: 'which team members are there?', limit: 1 })[0]?.name).toBe('lookup_member');
    const reversed = createToolIndex(tools.map((tool) => ({ ...tool, annotations: { readOnlyHint: tool.name === 'member_create' } })));
    expect(reversed.search({ query: 'which team members are there?', limit: 1 })[0]?.name).toBe('member_create');
  });

  it('searches parameter names and descriptions, weaker than the name', () => {
    const tools: ToolSearchEntry[] = [
      {
        name: 'send',
        serverName: 'mail',
        toolName: 'send',
        description: 'Send a message',
        inputSchema: { type: 'object', properties: { attachment: { type: 'string', description: 'the recipient address' } } },
      },
      { name: 'attachment_info', serverName: 'mail', toolName: 'attachment_info', description: 'Describe an attachment' },
    ];
    const mail = createToolIndex(tools);
    expect(mail.search({ query: 'attachment', limit: 2 }).map((result) => result.name)).toEqual(['attachment_info', 'send']);
    expect(mail.search({ query: 'recipient', limit: 2 }).map((result) => result.name)).toEqual(['send']);
  });

  it('breaks ties in name order, whatever the order of the tools', () => {
    const twins = (names: string[]): ToolSearchEntry[] =>
      names.map((name) => ({ name, serverName: name, toolName: 'echo', description: 'Echo the input back' }));
    const forward = createToolIndex(twins(['b__echo', 'a__echo', 'c__echo'])).search({ query: 'echo back', limit: 3 });
    const backward = createToolIndex(twins(['c__echo', 'a__echo', 'b__echo'])).search({ query: 'echo back', limit: 3 });
    expect(forward.map((result) => result.name)).toEqual(['a__echo', 'b__echo', 'c__echo']);
    expect(backward).toEqual(forward);
  });

  it('answers a tool named in the query first, then matches; select: lists exactly', () => {
    expect(top('github__create_issue and something like it', 2)).toEqual(['create_issue', 'list_issues']);
    expect(top('select:list_issues,browser_click,nope', 5)).toEqual(['list_issues', 'browser_click']);
    expect(index.search({ query: 'nothing here matches xyzzy' })).toEqual([]);
  });

  it('gives the best match 1 and the others their share of it', () => {
    const results = index.search({ query: 'create a pull request', limit: 5 });
    expect(results[0]?.score).toBe(1);
    for (const [position, result] of results.entries()) {
      expect(result.score).toBeGreaterThan(0);
      expect(result.score).toBeLessThanOrEqual(results[position - 1]?.score ?? 1);
    }
  });

  it("accepts a host's tool definitions (originalName) and copies what it reads", () => {
    const definition: HostToolDefinition = {
      name: 'github__create_issue',
      serverName: 'github',
      originalName: 'create_issue',
      description: 'Create a new issue',
      inputSchema: { type: 'object' },
    };
    const mutable = { ...definition };
    const hostIndex = createToolIndex([mutable]);
    mutable.description = 'Something else entirely';
    expect(hostIndex.search({ query: 'file an issue' })).toEqual([
      { name: 'github__create_issue', serverName: 'github', toolName: 'create_issue', score: 1 },
    ]);
  });

  it('takes an extended vocabulary and field weights', () => {
    const tools: ToolSearchEntry[] = [
      { name: 'create_invoice', serverName: 'finance', toolName: 'create_invoice', description: 'New invoice' },
    ];
    expect(createToolIndex(tools).search({ query: 'bill the customer' })).toEqual([]);
    const billing = createToolIndex(tools, {
      vocabulary: { ...DEVELOPER_VOCABULARY, synonyms: [...DEVELOPER_VOCABULARY.synonyms, ['invoice', 'bill']] },
    });
    expect(billing.search({ query: 'bill the customer' }).map((result) => result.name)).toEqual(['create_invoice']);
    const nameOnly = createToolIndex(TOOLS, { fieldWeights: { description: 0, title: 0, parameters: 0, server: 0 } });
    expect(top('the latest from the base', 1)).toEqual(['update_pull_request_branch']);
    expect(nameOnly.search({ query: 'the latest from the base' }).map((result) => result.name)).not.toContain('update_pull_request_branch');
  });

  it('explains why a tool matched', () => {
    const explanation = index.explain('bump the PR branch', 'update_pull_request_branch');
    expect(explanation?.concepts).toEqual([
      { text: 'bump', term: 'updat', weight: expect.any(Number), fields: expect.arrayContaining(['name']) },
      { text: 'pr', term: 'pull request', weight: expect.any(Number), fields: expect.arrayContaining(['name']) },
      { text: 'branch', term: 'branch', weight: 1, fields: expect.arrayContaining(['name']) },
    ]);
    expect(index.explain('anything', 'no_such_tool')).toBeUndefined();
  });

  it('rejects tools it cannot index with INVALID_OPTIONS naming the entry', () => {
    const bad = (tools: unknown, message: RegExp): void => {
      expect(() => createToolIndex(tools as ToolSearchEntry[])).toThrow(message);
      expect(() => createToolIndex(tools as ToolSearchEntry[])).toThrow(ToolSearchError);
    };
    bad('tools', /must be an array/);
    bad([null], /tool 0 must be an object/);
    bad([{ name: 'a', serverName: 's' }], /tool 0 has no toolName \(or originalName\)/);
    bad([{ name: '', serverName: 's', toolName: 't' }], /tool 0 has no name/);
    bad(
      [
        { name: 'a', serverName: 's', toolName: 't' },
        { name: 'a', serverName: 'r', toolName: 't' },
      ],
      /two tools are named 'a' \(tools 0 and 1\)/,
    );
    expect(() => createToolIndex(TOOLS, { fieldWeights: { name: -1 } })).toThrow(/weight of the name field/);
  });
});
