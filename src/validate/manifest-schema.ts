/**
 * JSON Schema (draft-07) of manifest language v1: the shape of the file, checked
 * by ajv before the semantic rules. `schema/manifest.schema.json` is written
 * from this object by `npm run docs` for editors; a test keeps the two equal.
 */
export const manifestSchema = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "mcp-gen manifest v1",
  "description": "Describes an MCP server (spec revision 2026-07-28): its tools, resources, prompts and state handles. mcp-gen compiles it into a typed TypeScript server.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "mcpGen",
    "server"
  ],
  "properties": {
    "$schema": {
      "type": "string",
      "description": "Schema location for editors; ignored by mcp-gen."
    },
    "mcpGen": {
      "const": 1,
      "description": "Version of the manifest language. Always 1."
    },
    "server": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name",
        "version"
      ],
      "properties": {
        "name": {
          "type": "string",
          "pattern": "^[a-z][a-z0-9-]*$",
          "maxLength": 64,
          "description": "Becomes serverInfo.name and the package name."
        },
        "version": {
          "type": "string",
          "pattern": "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$",
          "description": "Semantic version; becomes serverInfo.version."
        },
        "title": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200,
          "description": "Display name for hosts."
        },
        "description": {
          "type": "string",
          "minLength": 1,
          "maxLength": 2000,
          "description": "What the server is for; shown in serverInfo."
        },
        "instructions": {
          "type": "string",
          "minLength": 1,
          "maxLength": 8000,
          "description": "Guidance for the model, returned by server/discover."
        }
      }
    },
    "protocol": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "versions": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "examples": [
              "2026-07-28"
            ]
          },
          "description": "Protocol revisions served on the modern path. Default [\"2026-07-28\"]."
        },
        "legacy": {
          "enum": [
            "serve",
            "reject"
          ],
          "description": "serve: answer 2025-11-25 clients (desktop and IDE hosts, MCP Inspector) through the labeled legacy adapter; reject: answer them with -32022. Default serve."
        }
      }
    },
    "cache": {
      "$ref": "#/definitions/cache",
      "description": "Default freshness for server/discover, lists and resource reads."
    },
    "transports": {
      "type": "object",
      "additionalProperties": false,
      "minProperties": 1,
      "description": "Transports the server offers. Default: stdio only.",
      "properties": {
        "stdio": {
          "type": [
            "object",
            "null"
          ],
          "additionalProperties": false,
          "properties": {},
          "description": "Serve over stdin/stdout. Write {} to enable."
        },
        "http": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "host": {
              "type": "string",
              "minLength": 1,
              "description": "Bind address. Default 127.0.0.1."
            },
            "port": {
              "type": "integer",
              "minimum": 1,
              "maximum": 65535,
              "description": "Default 3000."
            },
            "path": {
              "type": "string",
              "pattern": "^/[A-Za-z0-9._~/-]*$",
              "description": "The single MCP endpoint. Default /mcp."
            },
            "allowedOrigins": {
              "type": "array",
              "items": {
                "type": "string"
              },
              "description": "Browser origins allowed besides loopback, e.g. http://localhost:6274."
            }
          }
        }
      }
    },
    "auth": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "type"
      ],
      "properties": {
        "type": {
          "enum": [
            "none",
            "bearer",
            "oauth"
          ]
        },
        "tokensEnv": {
          "type": "string",
          "pattern": "^[A-Z_][A-Z0-9_]*$",
          "description": "bearer: env var holding token=principal:scope,scope;... entries."
        },
        "issuer": {
          "type": "string",
          "description": "oauth: the authorization server (JWT iss)."
        },
        "jwksUri": {
          "type": "string",
          "description": "oauth: where the issuer publishes its signing keys."
        },
        "resource": {
          "type": "string",
          "description": "oauth: this server's resource URL; access tokens must name it as audience. bearer (optional): the public URL of the MCP endpoint, for the protected-resource metadata behind a TLS-terminating proxy."
        },
        "scopes": {
          "type": "object",
          "propertyNames": {
            "pattern": "^[a-z][a-z0-9_.:-]*$",
            "maxLength": 64
          },
          "additionalProperties": {
            "type": "string",
            "minLength": 1
          },
          "description": "Scope name to what it allows."
        }
      },
      "if": {
        "properties": {
          "type": {
            "const": "bearer"
          }
        }
      },
      "then": {
        "required": [
          "tokensEnv"
        ]
      },
      "else": {
        "if": {
          "properties": {
            "type": {
              "const": "oauth"
            }
          }
        },
        "then": {
          "required": [
            "issuer",
            "jwksUri",
            "resource"
          ]
        }
      }
    },
    "handles": {
      "type": "object",
      "propertyNames": {
        "$ref": "#/definitions/name"
      },
      "additionalProperties": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "description"
        ],
        "properties": {
          "description": {
            "type": "string",
            "minLength": 1
          },
          "ttl": {
            "$ref": "#/definitions/duration"
          },
          "ttlMs": {
            "type": "integer",
            "minimum": 1
          }
        }
      }
    },
    "tools": {
      "type": "object",
      "propertyNames": {
        "$ref": "#/definitions/name"
      },
      "additionalProperties": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "description",
          "input"
        ],
        "properties": {
          "title": {
            "type": "string",
            "minLength": 1
          },
          "description": {
            "type": "string",
            "minLength": 1
          },
          "annotations": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
              "readOnlyHint": {
                "type": "boolean"
              },
              "destructiveHint": {
                "type": "boolean"
              },
              "idempotentHint": {
                "type": "boolean"
              },
              "openWorldHint": {
                "type": "boolean"
              }
            }
          },
          "approval": {
            "enum": [
              "confirm",
              "none"
            ],
            "description": "confirm: ask the user before the handler runs. Default confirm for destructive tools, none otherwise."
          },
          "scopes": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "renamedFrom": {
            "type": "string",
            "pattern": "^[a-z][a-z0-9_]*$",
            "description": "The tool's previous name; the handler file and symbol are renamed on the next generate."
          },
          "input": {
            "type": "object",
            "description": "JSON Schema 2020-12 of the arguments; root type object. `$handle: kind` marks a state handle."
          },
          "output": {
            "type": "object",
            "description": "JSON Schema 2020-12 of structuredContent."
          }
        }
      }
    },
    "resources": {
      "type": "object",
      "propertyNames": {
        "$ref": "#/definitions/name"
      },
      "additionalProperties": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "uri": {
            "type": "string"
          },
          "uriTemplate": {
            "type": "string"
          },
          "title": {
            "type": "string",
            "minLength": 1
          },
          "description": {
            "type": "string",
            "minLength": 1
          },
          "mimeType": {
            "type": "string",
            "pattern": "^[a-z0-9.+-]+/[a-zA-Z0-9.+-]+$"
          },
          "cache": {
            "$ref": "#/definitions/cache"
          },
          "completions": {
            "type": "object",
            "description": "Values offered by completion/complete for each URI template variable (the ones starting with the typed prefix).",
            "additionalProperties": {
              "$ref": "#/definitions/completionValues"
            }
          }
        }
      }
    },
    "prompts": {
      "type": "object",
      "propertyNames": {
        "$ref": "#/definitions/name"
      },
      "additionalProperties": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "title": {
            "type": "string",
            "minLength": 1
          },
          "description": {
            "type": "string",
            "minLength": 1
          },
          "arguments": {
            "type": "object",
            "propertyNames": {
              "$ref": "#/definitions/name"
            },
            "additionalProperties": {
              "type": "object",
              "additionalProperties": false,
              "properties": {
                "title": {
                  "type": "string",
                  "minLength": 1
                },
                "description": {
                  "type": "string",
                  "minLength": 1
                },
                "required": {
                  "type": "boolean"
                },
                "completions": {
                  "$ref": "#/definitions/completionValues",
                  "description": "Values offered by completion/complete for this argument (the ones starting with the typed prefix)."
                }
              }
            }
          },
          "messages": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "role",
                "text"
              ],
              "properties": {
                "role": {
                  "enum": [
                    "user",
                    "assistant"
                  ]
                },
                "text": {
                  "type": "string",
                  "minLength": 1,
                  "description": "{{argument}} placeholders are filled from the prompt's arguments."
                }
              }
            }
          }
        }
      }
    },
    "secrets": {
      "type": "object",
      "additionalProperties": false,
      "description": "Environment variables holding the signing keys (at least 32 bytes each). Defaults: <SERVER_NAME>_HANDLE_KEY and <SERVER_NAME>_STATE_KEY.",
      "properties": {
        "handleKeyEnv": {
          "type": "string",
          "pattern": "^[A-Z_][A-Z0-9_]*$",
          "description": "Signs state handles."
        },
        "requestStateKeyEnv": {
          "type": "string",
          "pattern": "^[A-Z_][A-Z0-9_]*$",
          "description": "Signs the approval state of destructive tools."
        }
      }
    },
    "lint": {
      "type": "object",
      "additionalProperties": false,
      "description": "Settings of the design review (mcp-gen check).",
      "properties": {
        "maxTools": {
          "type": "integer",
          "minimum": 1,
          "description": "More tools than this is a lint warning. Default 20."
        }
      }
    }
  },
  "definitions": {
    "completionValues": {
      "type": "array",
      "minItems": 1,
      "uniqueItems": true,
      "items": {
        "type": "string",
        "minLength": 1
      }
    },
    "name": {
      "type": "string",
      "pattern": "^[a-z][a-z0-9_]*$",
      "maxLength": 64
    },
    "duration": {
      "type": "string",
      "pattern": "^[1-9][0-9]*(ms|s|m|h|d)$",
      "description": "e.g. 500ms, 90s, 15m, 2h, 1d"
    },
    "cache": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "ttl": {
          "$ref": "#/definitions/duration"
        },
        "ttlMs": {
          "type": "integer",
          "minimum": 0
        },
        "scope": {
          "enum": [
            "public",
            "private"
          ]
        }
      }
    }
  }
} as const;
