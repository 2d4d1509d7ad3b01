// Copyright © Serilog Contributors
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

namespace Serilog.Core;

/// <summary>
/// A destination for log events.
/// </summary>
/// <seealso cref="ILogEventSink"/>
public interface ILogEventSink
{
    /// <summary>
    /// Emit the provided log event to the sink.
    /// </summary>
    /// <param name="logEvent">The log event to write.</param>
    /// <seealso cref="IBatchedLogEventSink"/>
    /// <remarks>Implementers should allow exceptions to propagate when event emission fails. The logger will handle
    /// exceptions and produce diagnostics appropriately.</remarks>
    void Emit(LogEvent logEvent);
}
