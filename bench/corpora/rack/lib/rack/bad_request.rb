# frozen_string_literal: true

module Rack
  # Represents a 400 Bad Request error when input data fails to meet the
  # requirements.
  module BadRequest
  end
end
