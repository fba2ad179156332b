// Real-world-shaped MCP tool input schemas (GitHub, filesystem, Playwright, Atlassian, FastMCP/pydantic, zod-to-json-schema).
/** One tool of the corpus. */
export interface CorpusTool {
  /** The server the shape is modelled on. */
  server: string;
  /** Tool name. */
  name: string;
  /** The tool's `inputSchema`. */
  inputSchema: Record<string, unknown>;
}

const DRAFT7 = 'http://json-schema.org/draft-07/schema#';

/** About 30 tool schemas shaped like the ones popular MCP servers publish. */
export const TOOL_SCHEMA_CORPUS: CorpusTool[] = [
  {
    server: 'github',
    name: 'create_issue',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner' },
        repo: { type: 'string', description: 'Repository name' },
        title: { type: 'string', description: 'Issue title' },
        body: { type: 'string', description: 'Issue body content' },
        assignees: { type: 'array', items: { type: 'string' }, description: 'Usernames to assign to this issue' },
        labels: { type: 'array', items: { type: 'string' }, description: 'Labels to apply to this issue' },
        milestone: { type: 'number', description: 'Milestone number' },
        type: { type: 'string', description: 'Type of this issue' },
      },
      required: ['owner', 'repo', 'title'],
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    server: 'github',
    name: 'search_repositories',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Search query (see GitHub search syntax)' },
        page: { type: 'number', minimum: 1, description: 'Page number for pagination (min 1)' },
        perPage: { type: 'number', minimum: 1, maximum: 100, description: 'Results per page for pagination (min 1, max 100)' },
        sort: { type: 'string', enum: ['stars', 'forks', 'help-wanted-issues', 'updated'] },
        order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
      },
      required: ['query'],
    },
  },
  {
    server: 'github',
    name: 'create_pull_request',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string' },
        repo: { type: 'string' },
        title: { type: 'string' },
        body: { type: 'string' },
        head: { type: 'string', description: 'The name of the branch where your changes are implemented' },
        base: { type: 'string', description: 'The name of the branch you want the changes pulled into' },
        draft: { type: 'boolean' },
        maintainer_can_modify: { type: 'boolean' },
      },
      required: ['owner', 'repo', 'title', 'head', 'base'],
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    server: 'github',
    name: 'get_file_contents',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string' },
        repo: { type: 'string' },
        path: { type: 'string', default: '/' },
        ref: {
          type: 'string',
          description: 'Accepts optional git refs such as `refs/tags/{tag}`, `refs/heads/{branch}` or `refs/pull/{pr_number}/head`',
        },
        sha: { type: 'string' },
      },
      required: ['owner', 'repo'],
    },
  },
  {
    server: 'github',
    name: 'push_files',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string' },
        repo: { type: 'string' },
        branch: { type: 'string' },
        files: {
          type: 'array',
          description: 'Array of file objects to push',
          items: {
            type: 'object',
            properties: { path: { type: 'string' }, content: { type: 'string' } },
            required: ['path', 'content'],
            additionalProperties: false,
          },
        },
        message: { type: 'string' },
      },
      required: ['owner', 'repo', 'branch', 'files', 'message'],
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    server: 'github',
    name: 'list_commits',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string' },
        repo: { type: 'string' },
        sha: { type: 'string' },
        author: { type: 'string' },
        page: { type: 'number', minimum: 1 },
        perPage: { type: 'number', minimum: 1, maximum: 100 },
      },
      required: ['owner', 'repo'],
    },
  },
  {
    server: 'github',
    name: 'update_issue',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string' },
        repo: { type: 'string' },
        issue_number: { type: 'number' },
        state: { type: 'string', enum: ['open', 'closed'] },
        state_reason: { type: 'string', enum: ['completed', 'not_planned', 'duplicate'] },
        labels: { type: 'array', items: { type: 'string' } },
        assignees: { type: 'array', items: { type: 'string' } },
        milestone: { type: ['number', 'null'] },
      },
      required: ['owner', 'repo', 'issue_number'],
    },
  },
  {
    server: 'filesystem',
    name: 'read_text_file',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        tail: { type: 'number', description: 'If provided, returns only the last N lines of the file' },
        head: { type: 'number', description: 'If provided, returns only the first N lines of the file' },
      },
      required: ['path'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'filesystem',
    name: 'read_multiple_files',
    inputSchema: {
      type: 'object',
      properties: { paths: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'Array of file paths to read.' } },
      required: ['paths'],
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    server: 'filesystem',
    name: 'edit_file',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        edits: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              oldText: { type: 'string', description: 'Text to search for - must match exactly' },
              newText: { type: 'string', description: 'Text to replace with' },
            },
            required: ['oldText', 'newText'],
            additionalProperties: false,
          },
        },
        dryRun: { type: 'boolean', default: false, description: 'Preview changes using git-style diff format' },
      },
      required: ['path', 'edits'],
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    server: 'filesystem',
    name: 'search_files',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        pattern: { type: 'string' },
        excludePatterns: { type: 'array', items: { type: 'string' }, default: [] },
      },
      required: ['path', 'pattern'],
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    server: 'filesystem',
    name: 'list_directory_with_sizes',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        sortBy: { type: 'string', enum: ['name', 'size'], default: 'name', description: 'Sort entries by name or size' },
      },
      required: ['path'],
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    server: 'filesystem',
    name: 'move_file',
    inputSchema: {
      type: 'object',
      properties: { source: { type: 'string' }, destination: { type: 'string' } },
      required: ['source', 'destination'],
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  { server: 'filesystem', name: 'list_allowed_directories', inputSchema: { type: 'object', properties: {}, required: [] } },
  {
    server: 'playwright',
    name: 'browser_navigate',
    inputSchema: {
      type: 'object',
      properties: { url: { type: 'string', description: 'The URL to navigate to' } },
      required: ['url'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  },
  {
    server: 'playwright',
    name: 'browser_click',
    inputSchema: {
      type: 'object',
      properties: {
        element: {
          type: 'string',
          description: 'Human-readable element description used to obtain permission to interact with the element',
        },
        ref: { type: 'string', description: 'Exact target element reference from the page snapshot' },
        doubleClick: { type: 'boolean', description: 'Whether to perform a double click instead of a single click' },
        button: { type: 'string', enum: ['left', 'right', 'middle'], description: 'Button to click, defaults to left' },
        modifiers: { type: 'array', items: { type: 'string', enum: ['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'] } },
      },
      required: ['element', 'ref'],
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    server: 'playwright',
    name: 'browser_type',
    inputSchema: {
      type: 'object',
      properties: {
        element: { type: 'string' },
        ref: { type: 'string' },
        text: { type: 'string' },
        submit: { type: 'boolean' },
        slowly: { type: 'boolean' },
      },
      required: ['element', 'ref', 'text'],
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    server: 'playwright',
    name: 'browser_take_screenshot',
    inputSchema: {
      type: 'object',
      properties: {
        type: { type: 'string', enum: ['png', 'jpeg'], default: 'png', description: 'Image format for the screenshot. Default is png.' },
        filename: { type: 'string' },
        element: { type: 'string' },
        ref: { type: 'string' },
        fullPage: { type: 'boolean' },
      },
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    server: 'playwright',
    name: 'browser_fill_form',
    inputSchema: {
      type: 'object',
      properties: {
        fields: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              type: { type: 'string', enum: ['textbox', 'checkbox', 'radio', 'combobox', 'slider'] },
              ref: { type: 'string' },
              value: { type: 'string' },
            },
            required: ['name', 'type', 'ref', 'value'],
            additionalProperties: false,
          },
        },
      },
      required: ['fields'],
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    server: 'playwright',
    name: 'browser_evaluate',
    inputSchema: {
      type: 'object',
      properties: {
        function: { type: 'string', description: '() => { /* code */ } or (element) => { /* code */ } when element is provided' },
        element: { type: 'string' },
        ref: { type: 'string' },
      },
      required: ['function'],
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    server: 'playwright',
    name: 'browser_wait_for',
    inputSchema: {
      type: 'object',
      properties: { time: { type: 'number' }, text: { type: 'string' }, textGone: { type: 'string' } },
      additionalProperties: false,
      $schema: DRAFT7,
    },
  },
  {
    server: 'atlassian',
    name: 'jira_create_issue',
    inputSchema: {
      type: 'object',
      properties: {
        project_key: { type: 'string', title: 'Project Key', description: "The JIRA project key (e.g. 'PROJ')" },
        summary: { type: 'string', title: 'Summary' },
        issue_type: { type: 'string', title: 'Issue Type' },
        assignee: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Assignee' },
        description: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Description' },
        components: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Components' },
        additional_fields: {
          anyOf: [{ type: 'object', additionalProperties: true }, { type: 'null' }],
          default: null,
          title: 'Additional Fields',
        },
      },
      required: ['project_key', 'summary', 'issue_type'],
      title: 'jira_create_issueArguments',
    },
  },
  {
    server: 'atlassian',
    name: 'jira_search',
    inputSchema: {
      type: 'object',
      properties: {
        jql: { type: 'string', title: 'Jql' },
        fields: { type: 'string', default: 'summary,status,assignee', title: 'Fields' },
        limit: { type: 'integer', default: 10, minimum: 1, maximum: 50, title: 'Limit' },
        start_at: { type: 'integer', default: 0, minimum: 0, title: 'Start At' },
        projects_filter: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Projects Filter' },
      },
      required: ['jql'],
      title: 'jira_searchArguments',
    },
  },
  {
    server: 'atlassian',
    name: 'jira_transition_issue',
    inputSchema: {
      type: 'object',
      properties: {
        issue_key: { type: 'string' },
        transition_id: { type: 'string' },
        fields: { anyOf: [{ additionalProperties: true, type: 'object' }, { type: 'null' }], default: null },
        comment: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
      },
      required: ['issue_key', 'transition_id'],
    },
  },
  {
    server: 'atlassian',
    name: 'confluence_create_page',
    inputSchema: {
      type: 'object',
      properties: {
        space_key: { type: 'string' },
        title: { type: 'string' },
        content: { type: 'string' },
        parent_id: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
        content_format: { type: 'string', enum: ['markdown', 'wiki', 'storage'], default: 'markdown' },
        enable_heading_anchors: { type: 'boolean', default: false },
      },
      required: ['space_key', 'title', 'content'],
    },
  },
  {
    server: 'atlassian',
    name: 'confluence_search',
    inputSchema: {
      $defs: {
        SearchOptions: {
          properties: {
            spaces_filter: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
            include_archived: { type: 'boolean', default: false },
          },
          title: 'SearchOptions',
          type: 'object',
        },
      },
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer', default: 10 },
        options: { anyOf: [{ $ref: '#/$defs/SearchOptions' }, { type: 'null' }], default: null },
      },
      required: ['query'],
      type: 'object',
    },
  },
  {
    server: 'zod',
    name: 'schedule_meeting',
    inputSchema: {
      $ref: '#/definitions/ScheduleMeeting',
      definitions: {
        ScheduleMeeting: {
          type: 'object',
          properties: {
            title: { type: 'string', minLength: 1 },
            start: { type: 'string', format: 'date-time' },
            durationMinutes: { type: 'integer', exclusiveMinimum: 0 },
            attendees: { type: 'array', items: { type: 'string', format: 'email' }, uniqueItems: true },
            location: {
              oneOf: [
                { type: 'object', properties: { kind: { const: 'room' }, room: { type: 'string' } }, required: ['kind', 'room'] },
                {
                  type: 'object',
                  properties: { kind: { const: 'url' }, url: { type: 'string', format: 'uri' } },
                  required: ['kind', 'url'],
                },
              ],
            },
          },
          required: ['title', 'start'],
          additionalProperties: false,
        },
      },
      $schema: DRAFT7,
    },
  },
  {
    server: 'notes',
    name: 'save_outline',
    inputSchema: {
      type: 'object',
      properties: { outline: { $ref: '#/$defs/Node' } },
      required: ['outline'],
      $defs: {
        Node: {
          type: 'object',
          properties: { title: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
          required: ['title'],
        },
      },
      $schema: 'https://json-schema.org/draft/2020-12/schema',
    },
  },
  {
    server: 'db',
    name: 'run_query',
    inputSchema: {
      type: 'object',
      properties: {
        sql: { type: 'string' },
        params: { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] } },
        options: {
          type: 'object',
          properties: { timeoutMs: { type: 'integer' }, readOnly: { type: 'boolean', default: true } },
          additionalProperties: { type: 'string' },
        },
      },
      required: ['sql'],
      allOf: [{ if: { properties: { sql: { pattern: '^\\s*select' } } }, then: { properties: { options: { type: 'object' } } } }],
    },
  },
  {
    server: 'http',
    name: 'fetch',
    inputSchema: {
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri', description: 'URL to fetch' },
        max_length: { type: 'integer', default: 5000, exclusiveMinimum: 0, exclusiveMaximum: 1000000 },
        start_index: { type: 'integer', default: 0, minimum: 0 },
        raw: { type: 'boolean', default: false },
        headers: { type: 'object', patternProperties: { '^[A-Za-z-]+$': { type: 'string' } } },
      },
      required: ['url'],
      title: 'Fetch',
    },
  },
];
