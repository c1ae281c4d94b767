/**
 * Replies of the production service, as the official SDK recorded them (public repository
 * `ai-forever/gigachat`, `tests/integration/cassettes/`, 2026): the bodies exactly as they came,
 * with what was asked. The conformance tests serve them through the emulator's TLS server and
 * check what the client reads of them.
 */

/** `test_stream_simple`: v1, GigaChat, "Count from 1 to 3", streamed. */
export const V1_STREAM_COUNT = String.raw`data: {"choices":[{"delta":{"content":"$1\\, 2\\, 3$","role":"assistant"},"index":0}],"created":1771250907,"model":"GigaChat:2.0.28.2","object":"chat.completion"}


data: {"choices":[{"delta":{"content":""},"index":0,"finish_reason":"stop"}],"created":1771250907,"model":"GigaChat:2.0.28.2","object":"chat.completion","usage":{"prompt_tokens":17,"completion_tokens":10,"total_tokens":27,"precached_prompt_tokens":2}}


data: [DONE]


`;

/** `test_primary_chat_stream_simple`: v2, GigaChat-3-Ultra, "Count from 1 to 3", streamed. */
export const V2_STREAM_COUNT = `event: response.message.delta
data: {"model":"GigaChat-3-Ultra:32.3.18.5","created_at":1780321864,"messages":[{"role":"assistant","content":[{"text":"1, 2, 3"}]}]}


event: response.message.done
data: {"model":"GigaChat-3-Ultra:32.3.18.5","created_at":1780321864,"finish_reason":"stop","usage":{"input_tokens":19,"input_tokens_details":{"prompt_tokens":19,"cached_tokens":0},"output_tokens":8,"total_tokens":27}}


`;

const usage = (input: number, cached: number, output: number) => ({
  input_tokens: input,
  input_tokens_details: { prompt_tokens: input, cached_tokens: cached },
  output_tokens: output,
  total_tokens: input + output,
});

/** `test_primary_chat_function_tool_roundtrip`, first answer: v2, a forced call of `get_order_status`. */
export const V2_FUNCTION_CALL = JSON.stringify({
  model: 'GigaChat-3-Ultra:32.3.18.5',
  created_at: 1780321868,
  messages: [
    {
      role: 'assistant',
      tool_state_id: '019e8373-dc9a-7883-af60-ebb20b79e1e1',
      content: [{ function_call: { name: 'get_order_status', arguments: { order_id: 'A-1024' } } }],
    },
  ],
  finish_reason: 'function_call',
  usage: usage(88, 0, 25),
});

/** The same exchange's second answer, after the function's result. */
export const V2_FUNCTION_ANSWER = JSON.stringify({
  model: 'GigaChat-3-Ultra:32.3.18.5',
  created_at: 1780321871,
  messages: [
    {
      role: 'assistant',
      tool_state_id: '019e8373-e5fb-754f-a5b6-3025cdf27848',
      content: [{ text: 'Order A-1024 is currently packed and scheduled for delivery tomorrow.' }],
    },
  ],
  finish_reason: 'stop',
  usage: usage(150, 0, 17),
});

/** `test_primary_chat_builtin_tools`, web search: "What is new in the latest stable Python release?" */
export const V2_WEB_SEARCH = JSON.stringify({
  model: 'GigaChat-3-Ultra:32.3.18.5',
  created_at: 1780321888,
  messages: [
    {
      role: 'assistant',
      tool_state_id: '019e8374-28b2-741f-a05c-54c968fd20c2',
      content: [
        {
          text:
            'The latest stable release of Python, Python 3.15, has introduced several significant changes and improvements. Here are some of the key highlights:\n\n' +
            '1. **JIT Compiler Improvements**: Python 3.15 alpha releases have shown performance gains of up to 7-8% on some platforms due to enhancements in the JIT compiler. This is particularly notable on AArch64 macOS and x86-64 Linux systems [sources=[2]].\n\n' +
            '2. **UTF-8 as Default Encoding**: PEP 686 has introduced UTF-8 as the default text encoding for files that do not specify an encoding, which aims to improve compatibility and reduce encoding errors [sources=[2]].\n\n' +
            '3. **New Statistical Sampling Profiler**: PEP 799 introduces a high-frequency, low-overhead statistical sampling profiler, which can help developers optimize their code more effectively [sources=[2]].\n\n' +
            '4. **Enhanced Error Messages**: The error messages in Python 3.15 have been improved for better clarity and usefulness, making debugging easier for developers [sources=[2]].\n\n' +
            '5. **Dedented Multiline Strings (d-strings)**: PEP 822 proposes a new syntax for multiline strings that automatically strips common leading whitespace, simplifying the writing of multiline strings within indented code blocks [sources=[2]].\n\n' +
            '6. **Security Enhancements**: The Python Software Foundation has received a $1.5 million investment from Anthropic to enhance security across the Python ecosystem, focusing on protecting PyPI users from supply-chain attacks [sources=[2]].\n\n' +
            '7. **Library and Tooling Updates**: \n   - **pandas 3.0**: This major release includes breaking changes such as a dedicated string dtype by default and copy-on-write semantics, which affect most pandas users. It also introduces new expression syntax and zero-copy data transfer capabilities [sources=[2]].\n' +
            '   - **Polars 1.37**: This release brings performance improvements and requires Python 3.10 or higher, dropping support for Python 3.9 [sources=[2]].\n' +
            '   - **PyTorch 2.10**: This version deprecates TorchScript and recommends migrating to `torch.export` for model deployment, along with various performance optimizations [sources=[2]].\n\n' +
            "These updates reflect ongoing efforts to improve Python's performance, security, and usability, making it a more robust and efficient programming language for developers.",
          inline_data: {
            images: [],
            sources: {
              '1': {
                url: 'https://learn.microsoft.com/ru-ru/agent-framework/support/upgrade/python-2026-significant-changes',
                title: 'Руководство по значительным изменениям в Python 2026',
              },
              '2': {
                url: 'https://realpython.com/python-news-february-2026/',
                title: 'pandas 3.0 Lands Breaking Changes and Other Python News for February 2026...',
              },
            },
          },
        },
      ],
    },
  ],
  finish_reason: 'stop',
  usage: usage(23767, 2557, 570),
});

/** The same recording, `image_generate`: the picture comes as a `files` part before the text. */
export const V2_PICTURE = JSON.stringify({
  model: 'GigaChat-3-Ultra:32.3.18.5',
  created_at: 1780321922,
  messages: [
    {
      role: 'assistant',
      tool_state_id: '019e8374-ae4c-7c7d-bc58-056e61761eb7',
      content: [
        { files: [{ id: 'f4b17167-3fa4-40aa-80c6-c737ee40d961', mime: 'image/jpeg', target: 'image' }] },
        { text: 'A simple square icon concept for a Python SDK release has been created.' },
      ],
    },
  ],
  finish_reason: 'stop',
  usage: usage(999, 830, 42),
});
